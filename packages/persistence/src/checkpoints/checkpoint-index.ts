import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import path from "node:path";
import type { FileState } from "./file-state.js";

/** The version of the index lines' format; a reader refuses lines of a newer one. */
export const CHECKPOINT_INDEX_VERSION = 1;

/**
 * One line of a conversation's checkpoint index (`<data dir>/checkpoints/index/<id>.jsonl`):
 * a turn began (with the workspace it changes), or what a path held before the turn's
 * first change to it, or after the turn's last.
 */
export type CheckpointLine =
  | {
      readonly type: "turn";
      readonly version: number;
      readonly turn: number;
      readonly workspace: string;
      /** RFC 3339, UTC. */
      readonly at: string;
    }
  | {
      readonly type: "before" | "after";
      readonly turn: number;
      /** Workspace-relative, `/` separators. */
      readonly path: string;
      readonly state: FileState;
    };

/** The index file of `conversationId`. */
export function indexPathOf(checkpointsDirectory: string, conversationId: string): string {
  if (!/^[0-9A-Za-z_-]+$/.test(conversationId)) {
    throw new TypeError(`not a conversation id: ${conversationId}`);
  }
  return path.join(checkpointsDirectory, "index", `${conversationId}.jsonl`);
}

/** Appends `lines` to the index of `conversationId`. */
export function appendCheckpointLines(
  checkpointsDirectory: string,
  conversationId: string,
  lines: readonly CheckpointLine[],
): void {
  if (lines.length === 0) return;
  const file = indexPathOf(checkpointsDirectory, conversationId);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  appendFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(""), {
    mode: 0o600,
  });
}

/** Appends to one conversation's index through a descriptor kept open (one write per call). */
export interface CheckpointAppender {
  readonly id: string;
  append(lines: readonly CheckpointLine[]): void;
  close(): void;
}

/** Opens the index of `conversationId` for appending, creating it. */
export function openCheckpointAppender(
  checkpointsDirectory: string,
  conversationId: string,
): CheckpointAppender {
  const file = indexPathOf(checkpointsDirectory, conversationId);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const descriptor = openSync(file, "a", 0o600);
  return {
    id: conversationId,
    append(lines) {
      if (lines.length === 0) return;
      writeSync(descriptor, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    },
    close: () => closeSync(descriptor),
  };
}

/**
 * The index of `conversationId`, oldest line first; empty when it has none. A torn last line
 * (the process ended mid-write) is skipped.
 */
export function readCheckpointLines(
  checkpointsDirectory: string,
  conversationId: string,
): CheckpointLine[] {
  let text: string;
  try {
    text = readFileSync(indexPathOf(checkpointsDirectory, conversationId), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const lines: CheckpointLine[] = [];
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue;
    let line: CheckpointLine;
    try {
      line = JSON.parse(raw) as CheckpointLine;
    } catch {
      continue;
    }
    if (line.type === "turn" && line.version > CHECKPOINT_INDEX_VERSION) {
      throw new Error(
        `the checkpoints of ${conversationId} were written by a newer XZatoma (index version ${line.version})`,
      );
    }
    lines.push(line);
  }
  return lines;
}
