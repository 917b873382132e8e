import { isXzatomaError } from "@xzatoma/core";
import { createGuardedFetch, type UrlDecision } from "@xzatoma/safety";
import { ExitCode } from "../exit-codes.js";
import { toTerminalSafe, toTerminalSafeJson, toTerminalSafeLine } from "../render/terminal-safe.js";

/** Options of `xzatoma policy check-url`. */
export interface CheckUrlOptions {
  readonly json?: boolean;
  readonly allowPort?: readonly number[];
  readonly allowHost?: readonly string[];
  /** Skip the DNS lookup (judge the URL text only). */
  readonly offline?: boolean;
}

/**
 * `xzatoma policy check-url URL`: prints the fetch tool's verdict on a URL and why, without
 * connecting: the static check, then (for a host name) the addresses it resolves to, each
 * judged as the connect-time check would.
 */
export async function checkUrlCommand(url: string, options: CheckUrlOptions): Promise<number> {
  const guard = createGuardedFetch({
    ...(options.allowPort ? { allowedPorts: options.allowPort } : {}),
    ...(options.allowHost ? { allowHosts: options.allowHost } : {}),
  });
  let decision: UrlDecision = guard.check(url);
  let addresses: string[] | undefined;
  try {
    if (decision.verdict !== "block" && decision.url && !options.offline) {
      const parsed = new URL(decision.url);
      const port =
        parsed.port === "" ? (parsed.protocol === "https:" ? 443 : 80) : Number(parsed.port);
      try {
        const resolved = await guard.resolve(parsed.hostname.replace(/^\[|\]$/g, ""), port);
        addresses = resolved.map((entry) => entry.address);
      } catch (error) {
        const reason = isXzatomaError(error)
          ? error.message
          : `the host cannot be resolved: ${String(error)}`;
        decision = { verdict: "block", reason, url: decision.url };
      }
    }
  } finally {
    await guard.close();
  }
  if (options.json) {
    process.stdout.write(
      `${toTerminalSafeJson({ url, ...decision, ...(addresses ? { addresses } : {}) })}\n`,
    );
  } else {
    process.stdout.write(`${decision.verdict}: ${toTerminalSafe(decision.reason)}\n`);
    if (addresses)
      process.stdout.write(`resolves to: ${toTerminalSafeLine(addresses.join(", "))}\n`);
  }
  return ExitCode.ok;
}
