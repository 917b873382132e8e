import { openHistory, type History } from "@xzatoma/persistence";
import { redactSecrets } from "@xzatoma/redaction";

/**
 * Opens the history database of a runtime. Stored messages are redacted on the way in:
 * history keeps file contents and command output, and a secret in them must not outlive
 * the run in a plain file.
 */
export function openRuntimeHistory(
  dbPath: string,
  durability: "full" | "normal" = "full",
): History {
  return openHistory({ path: dbPath, redact: redactSecrets, durability });
}
