import { realpathSync } from "node:fs";
import path from "node:path";
import { checkpointTurns, readCheckpointLines } from "@xzatoma/persistence";

/** Where a stored conversation worked and what it changed there, from its checkpoint index. */
export interface ConversationPlace {
  /** The workspace of its latest turn (a real path); undefined when none was recorded. */
  readonly workspace: string | undefined;
  /** Workspace-relative paths its turns changed, each once, in the order first changed. */
  readonly filesChanged: readonly string[];
}

/**
 * Reads where conversation `id` worked from `<data dir>/checkpoints/index/<id>.jsonl`: every
 * model turn records its workspace there, and every file change what the path held before.
 * A conversation whose index is gone (pruned, or history from before checkpoints) has no
 * known workspace; an unreadable index counts as gone.
 */
export function conversationPlace(dataDir: string, id: string): ConversationPlace {
  let turns: ReturnType<typeof checkpointTurns>;
  try {
    turns = checkpointTurns(readCheckpointLines(path.join(dataDir, "checkpoints"), id));
  } catch {
    return { workspace: undefined, filesChanged: [] };
  }
  const files = new Set<string>();
  for (const turn of turns) for (const file of turn.paths) files.add(file);
  return { workspace: turns.at(-1)?.workspace, filesChanged: [...files] };
}

/** The real path of `directory` (as checkpoints record it), or the path itself when it is gone. */
export function realDirectory(directory: string): string {
  try {
    return realpathSync(directory);
  } catch {
    return path.resolve(directory);
  }
}
