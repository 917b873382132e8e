import { openHistory, openHistoryOnFirstUse, type History } from "@xzatoma/persistence";
import { redactSecrets } from "@xzatoma/redaction";

/**
 * Opens the history database of a runtime. Stored messages are redacted on the way in:
 * history keeps file contents and command output, and a secret in them must not outlive
 * the run in a plain file.
 *
 * `opens: "first-use"` opens it with its first read or write instead of now, so a command's
 * first model request does not wait for it (docs/explanation/launch-path.md); an error
 * opening it is then thrown by that first call. A service that must not start without its
 * history (the watcher) opens it now, the default.
 */
export function openRuntimeHistory(
  dbPath: string,
  durability: "full" | "normal" = "full",
  opens: "now" | "first-use" = "now",
): History {
  const options = { path: dbPath, redact: redactSecrets, durability } as const;
  return opens === "first-use" ? openHistoryOnFirstUse(options) : openHistory(options);
}
