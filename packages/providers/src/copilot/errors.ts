import { XzatomaError, type XzatomaErrorOptions } from "@xzatoma/core";

/** Why signing in to GitHub Copilot failed. */
export type CopilotAuthFailure =
  /** No GitHub token: nobody has signed in. */
  | "not-signed-in"
  /** The device code expired before the user entered it. */
  | "expired"
  /** The user declined the authorization. */
  | "denied"
  /** GitHub rejected the GitHub token (revoked, or a classic PAT). */
  | "rejected"
  /** The account has no Copilot access. */
  | "no-access"
  /** Any other failure of the device flow. */
  | "device-flow";

/** Signing in to GitHub Copilot failed; `reason` says how. The code is `PROVIDER_AUTH`. */
export class CopilotAuthError extends XzatomaError {
  override readonly name = "CopilotAuthError";
  constructor(
    readonly reason: CopilotAuthFailure,
    message: string,
    options: XzatomaErrorOptions = {},
  ) {
    super("PROVIDER_AUTH", message, options);
  }
}
