import path from "node:path";
import type { CheckpointLine } from "./checkpoint-index.js";
import { describeState, readFileState, sameState, type FileState } from "./file-state.js";

/** A turn of a conversation's checkpoints and the paths it changed. */
export interface CheckpointTurn {
  readonly turn: number;
  readonly at: string;
  readonly workspace: string;
  readonly paths: readonly string[];
}

/** The turns of an index, oldest first. */
export function checkpointTurns(lines: readonly CheckpointLine[]): CheckpointTurn[] {
  const turns = new Map<number, { turn: number; at: string; workspace: string; paths: string[] }>();
  for (const line of lines) {
    if (line.type === "turn") {
      turns.set(line.turn, { turn: line.turn, at: line.at, workspace: line.workspace, paths: [] });
    } else if (line.type === "before") {
      turns.get(line.turn)?.paths.push(line.path);
    }
  }
  return [...turns.values()].sort((left, right) => left.turn - right.turn);
}

/** One path a rewind puts back. */
export interface RewindChange {
  /** Workspace-relative, `/` separators. */
  readonly path: string;
  /** What it holds now. */
  readonly current: FileState;
  /** What it held before the chosen turn, and gets back. */
  readonly target: FileState;
}

/** A path a rewind must not overwrite without `--force`: the person changed it. */
export interface RewindConflict extends RewindChange {
  /** Why, in a sentence. */
  readonly reason: string;
}

/** What a rewind to before a turn would do. */
export interface RewindPlan {
  readonly workspace: string;
  readonly toTurn: number;
  /** Paths to put back (conflicts excluded). */
  readonly changes: RewindChange[];
  /** Paths changed after the turn by someone else. */
  readonly conflicts: RewindConflict[];
  /** Paths whose earlier content was over the size limit: recorded by hash only. */
  readonly unrestorable: RewindChange[];
}

/**
 * Plans the rewind of `workspace` to its state before turn `toTurn`: for every path a turn
 * from `toTurn` on changed, the state recorded before the first of those turns changed it.
 * A path whose state now is not what the agent's last turn left there, or that changed
 * between two of the agent's turns, is a conflict: the person (or another program) changed
 * it, and only `--force` overwrites it (keeping a copy).
 */
export function planRewind(
  lines: readonly CheckpointLine[],
  toTurn: number,
  workspace: string,
): RewindPlan {
  const byPath = new Map<string, { turn: number; before?: FileState; after?: FileState }[]>();
  for (const line of lines) {
    if (line.type === "turn" || line.turn < toTurn) continue;
    let history = byPath.get(line.path);
    if (!history) byPath.set(line.path, (history = []));
    let entry = history.find((candidate) => candidate.turn === line.turn);
    if (!entry) history.push((entry = { turn: line.turn }));
    if (line.type === "before") entry.before ??= line.state;
    else entry.after = line.state;
  }
  const changes: RewindChange[] = [];
  const conflicts: RewindConflict[] = [];
  const unrestorable: RewindChange[] = [];
  for (const [relative, unsorted] of [...byPath].sort(([left], [right]) =>
    left.localeCompare(right),
  )) {
    const history = unsorted.filter((entry) => entry.before).sort((a, b) => a.turn - b.turn);
    const first = history[0];
    const last = history.at(-1);
    if (!first?.before || !last) continue;
    const target = first.before;
    const current = readFileState(path.join(workspace, ...relative.split("/")));
    if (sameState(current, target)) continue;
    const change = { path: relative, current, target };
    let reason: string | undefined;
    for (let index = 1; index < history.length && reason === undefined; index++) {
      const earlier = history[index - 1];
      const later = history[index];
      if (earlier?.after && later?.before && !sameState(earlier.after, later.before)) {
        reason = `changed between turn ${earlier.turn} and turn ${later.turn}, not by the agent`;
      }
    }
    if (reason === undefined) {
      if (last.after === undefined) {
        reason = `turn ${last.turn} did not record what it left here (the run ended abruptly), so a later change cannot be ruled out`;
      } else if (!sameState(current, last.after)) {
        reason = `changed after turn ${last.turn}: it holds ${describeState(current)}, turn ${last.turn} left ${describeState(last.after)}`;
      }
    }
    if (reason !== undefined) conflicts.push({ ...change, reason });
    else if (target.kind === "file" && !target.stored) unrestorable.push(change);
    else changes.push(change);
  }
  return { workspace, toTurn, changes, conflicts, unrestorable };
}
