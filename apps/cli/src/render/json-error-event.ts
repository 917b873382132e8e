import { isXzatomaError } from "@xzatoma/core";
import { presentError } from "../error-table.js";
import { ExitCode } from "../exit-codes.js";
import { UsageError } from "../usage-error.js";
import { toTerminalSafeJson } from "./terminal-safe.js";

/**
 * The JSON line `run --json` writes on stdout when it cannot start (a usage or
 * configuration error), so a script reading the event stream sees why, and the exit code
 * it ends with:
 *
 * ```json
 * {"type":"error","error":{"code":"CONFIG_INVALID","message":"...","hint":"..."},"exitCode":1}
 * ```
 *
 * Usage errors have the code `USAGE`. Undefined for anything else (a bug), which is thrown
 * on as before.
 */
export function jsonErrorEvent(error: unknown): { line: string; exitCode: number } | undefined {
  if (error instanceof UsageError) {
    const event = {
      type: "error",
      error: { code: "USAGE", message: error.message },
      exitCode: ExitCode.usage,
    };
    return { line: `${toTerminalSafeJson(event)}\n`, exitCode: ExitCode.usage };
  }
  if (!isXzatomaError(error)) return undefined;
  const presented = presentError(error);
  const hint = presented.lines.find((line) => line.startsWith("hint: "))?.slice("hint: ".length);
  const event = {
    type: "error",
    error: {
      code: error.code,
      message: error.message,
      ...(error.fields ? { fields: error.fields } : {}),
      ...(hint ? { hint } : {}),
    },
    exitCode: presented.exit,
  };
  return { line: `${toTerminalSafeJson(event)}\n`, exitCode: presented.exit };
}
