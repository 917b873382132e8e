import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { redactSecrets } from "@xzatoma/redaction";

/** A command that ran. */
export interface AuditedCommand {
  readonly kind: "command";
  readonly workingDirectory: string;
  readonly command: string;
  /** `null` when the process was killed (timeout, signal). */
  readonly exitCode: number | null;
  readonly durationMs: number;
  readonly sandboxed: boolean;
}

/** A decision about a tool call. */
export interface AuditedDecision {
  readonly kind: "decision";
  readonly workingDirectory: string;
  readonly toolName: string;
  readonly subject: string;
  readonly decision: "allow" | "confirm" | "block";
  readonly approved: boolean;
  readonly reason: string;
}

/** One audit entry. */
export type AuditEntry = AuditedCommand | AuditedDecision;

/** An append-only audit log. */
export interface AuditLog {
  readonly path: string;
  record(entry: AuditEntry): void;
}

function oneLine(text: string): string {
  // A newline in a command must not forge a second audit line; the separator is escaped too.
  return redactSecrets(text)
    .replace(/\r?\n|\r/g, "\\n")
    .replace(/\|/g, "\\|");
}

/**
 * Formats one entry of the audit log, one line each:
 * `2025-01-15T10:30:45Z | /home/user/project | ls -la | exit:0 | 0.023s`, and for
 * decisions `... | tool: subject | decision:block approved:false | reason`.
 */
export function formatAuditEntry(entry: AuditEntry, now: Date = new Date()): string {
  const time = now.toISOString().replace(/\.\d{3}Z$/, "Z");
  if (entry.kind === "command") {
    const exit = entry.exitCode === null ? "exit:killed" : `exit:${entry.exitCode}`;
    const sandbox = entry.sandboxed ? " | sandbox" : "";
    return `${time} | ${oneLine(entry.workingDirectory)} | ${oneLine(entry.command)} | ${exit} | ${(entry.durationMs / 1000).toFixed(3)}s${sandbox}`;
  }
  return `${time} | ${oneLine(entry.workingDirectory)} | ${oneLine(`${entry.toolName}: ${entry.subject}`)} | decision:${entry.decision} approved:${String(entry.approved)} | ${oneLine(entry.reason)}`;
}

/**
 * Opens the audit log at `path` for appending (creating its directory, mode 0700, and
 * the file, mode 0600). Writes are synchronous appends of whole lines, so lines from
 * concurrent writers do not interleave and a crash loses nothing already recorded.
 */
export function createAuditLog(options: { readonly path: string }): AuditLog {
  const file = path.resolve(options.path);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  return {
    path: file,
    record(entry) {
      appendFileSync(file, `${formatAuditEntry(entry)}\n`, { mode: 0o600 });
    },
  };
}
