import { XzatomaError } from "@xzatoma/errors";

/**
 * Why the sandbox would not run a command: `secret-scan` when the workspace could not be
 * searched for secret-looking files within the bounds (too many entries, too slow, an
 * unreadable directory), or when more of them were found than can be masked.
 */
export type SandboxRefusal = "secret-scan";

/**
 * The sandbox refused to prepare a command, because it could not give the command the
 * view it promises (a workspace without its secrets). Thrown by `Sandbox.prepare`; the
 * message says what happened and what to change, for the model and the person alike.
 */
export class SandboxRefusedError extends XzatomaError<{
  readonly workspace: string;
  readonly refusal: SandboxRefusal;
}> {
  declare readonly code: "SANDBOX_REFUSED";
  override readonly name = "SandboxRefusedError";

  /** The workspace the command was to run in. */
  readonly workspace: string;
  readonly refusal: SandboxRefusal;

  constructor(message: string, workspace: string, refusal: SandboxRefusal) {
    super("SANDBOX_REFUSED", message, { fields: { workspace, refusal } });
    this.workspace = workspace;
    this.refusal = refusal;
  }
}
