import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import type { History } from "../history.js";
import { openHistory, type OpenHistoryOptions } from "../open-history.js";

const directories: string[] = [];
const opened: History[] = [];

afterEach(() => {
  for (const history of opened.splice(0)) history.close();
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

/** A path for a database file in a fresh temporary directory, removed after the test. */
export function tempDbPath(name = "history.db"): string {
  const directory = mkdtempSync(path.join(tmpdir(), "xz-history-"));
  directories.push(directory);
  return path.join(directory, name);
}

/** Opens a history (on a fresh temp file unless `path` is given), closed after the test. */
export function openTempHistory(options: Partial<OpenHistoryOptions> = {}): History {
  const history = openHistory({ path: tempDbPath(), ...options });
  opened.push(history);
  return history;
}

/** A clock that starts at `start` and moves on by `stepSeconds` each time it is read. */
export function steppingClock(start: string, stepSeconds = 1): () => Date {
  let next = Date.parse(start);
  return () => {
    const date = new Date(next);
    next += stepSeconds * 1000;
    return date;
  };
}

/** Usage totals for tests. */
export const SOME_USAGE = { inputTokens: 120, outputTokens: 30, totalTokens: 150 };
