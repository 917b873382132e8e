import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  openSync,
  closeSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { redactSecrets } from "@xzatoma/redaction";

/** The messages typed at the chat prompt, oldest first, kept across sessions in a file. */
export interface PromptHistory {
  /** The entries, oldest first. */
  entries(): readonly string[];
  /**
   * Records a message that was sent. Not kept: an empty one, a repeat of the last entry,
   * and one in which a secret is found (the redactor of `@xzatoma/redaction` would change it).
   */
  add(text: string): void;
}

/** Options of {@link openPromptHistory}. */
export interface PromptHistoryOptions {
  /** The file (JSON lines, one message each); created with mode 0600, its folder with 0700. */
  readonly file: string;
  /** Entries kept; older ones are dropped. Default 1000. */
  readonly maxEntries?: number;
  /** Called once with the reason when the file cannot be read or written; history then lives in memory. */
  readonly warn?: (message: string) => void;
}

/** The history file in the data directory (`persistence.data_dir`). */
export function promptHistoryFile(dataDirectory: string): string {
  return path.join(dataDirectory, "prompt-history.jsonl");
}

/** Messages longer than this are not kept: a pasted log is not worth recalling. */
const MAX_ENTRY_LENGTH = 16_384;

/**
 * Opens the prompt history in `file`. A file that cannot be read starts an empty history;
 * one that cannot be written keeps this session's entries in memory only (one warning).
 * The file is private: created 0600, and set to 0600 when found otherwise.
 *
 * @example
 * const history = openPromptHistory({ file: path.join(dataDir, "prompt-history.jsonl") });
 */
export function openPromptHistory(options: PromptHistoryOptions): PromptHistory {
  const max = options.maxEntries ?? 1000;
  let entries: string[] = [];
  let writable = true;
  /** Lines in the file: it is rewritten with the last `max` once it holds a quarter more. */
  let lines = 0;
  const fail = (action: string, error: unknown) => {
    if (!writable) return;
    writable = false;
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    options.warn?.(
      `Prompt history: could not ${action} ${options.file} (${reason}); this session's messages are not kept.`,
    );
  };
  try {
    const text = readFileSync(options.file, "utf8");
    chmodSync(options.file, 0o600);
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      lines += 1;
      try {
        const value = JSON.parse(line) as unknown;
        if (typeof value === "string") entries.push(value);
      } catch {
        // A torn last line (a crash mid-write) is skipped; the rest stays.
      }
    }
    entries = entries.slice(-max);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") fail("read", error);
  }
  const rewrite = () => {
    writeFileSync(options.file, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(""), {
      mode: 0o600,
    });
  };
  return {
    entries: () => entries,
    add(text) {
      if (text.trim() === "" || text.length > MAX_ENTRY_LENGTH) return;
      if (/^\/?(exit|quit)$/.test(text.trim())) return;
      if (entries.at(-1) === text) return;
      if (redactSecrets(text) !== text) return;
      entries.push(text);
      if (entries.length > max) entries = entries.slice(-max);
      if (!writable) return;
      try {
        mkdirSync(path.dirname(options.file), { recursive: true, mode: 0o700 });
        lines += 1;
        if (lines > max + max / 4) {
          lines = entries.length;
          rewrite();
        } else {
          closeSync(openSync(options.file, "a", 0o600));
          appendFileSync(options.file, `${JSON.stringify(text)}\n`);
        }
      } catch (error) {
        fail("write", error);
      }
    },
  };
}
