import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";

/** Checkpoints take at most this many bytes of blobs by default: 2 GiB. */
export const DEFAULT_CHECKPOINT_MAX_BYTES = 2 * 1024 * 1024 * 1024;

/** Options of {@link pruneCheckpoints}. */
export interface PruneCheckpointsOptions {
  readonly dataDir: string;
  /** The most bytes the blobs may take; oldest conversations' checkpoints go first. */
  readonly maxBytes?: number;
  /** Whether a conversation still exists; the checkpoints of one that does not are removed. */
  readonly exists?: (conversationId: string) => boolean;
}

/** What a prune removed. */
export interface PruneResult {
  readonly conversations: string[];
  readonly blobs: number;
  readonly bytesLeft: number;
}

const HASH_PATTERN = /"hash":"([0-9a-f]{64})"/g;

/**
 * Bounds the checkpoints: drops the index of every conversation that `exists` says is gone,
 * then, while the blobs take more than `maxBytes`, the index of the oldest conversation
 * (by its index file's last change), then every blob no remaining index names.
 */
export function pruneCheckpoints(options: PruneCheckpointsOptions): PruneResult {
  const directory = path.join(options.dataDir, "checkpoints");
  const indexDirectory = path.join(directory, "index");
  const blobDirectory = path.join(directory, "blobs");
  const maxBytes = options.maxBytes ?? DEFAULT_CHECKPOINT_MAX_BYTES;
  const removed: string[] = [];
  let indexes: { id: string; file: string; changed: number }[] = [];
  try {
    indexes = readdirSync(indexDirectory)
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => {
        const file = path.join(indexDirectory, name);
        return { id: name.slice(0, -".jsonl".length), file, changed: statSync(file).mtimeMs };
      });
  } catch {
    return { conversations: [], blobs: 0, bytesLeft: 0 };
  }
  const drop = (entry: { id: string; file: string }) => {
    rmSync(entry.file, { force: true });
    removed.push(entry.id);
  };
  const exists = options.exists;
  if (exists) {
    for (const entry of indexes.filter((candidate) => !exists(candidate.id))) drop(entry);
    indexes = indexes.filter((entry) => !removed.includes(entry.id));
  }
  const blobs = new Map<string, { file: string; size: number }>();
  for (const prefix of safeList(blobDirectory)) {
    for (const rest of safeList(path.join(blobDirectory, prefix))) {
      if (rest.endsWith(".tmp")) continue;
      const file = path.join(blobDirectory, prefix, rest);
      blobs.set(prefix + rest, { file, size: statSync(file).size });
    }
  }
  const referenced = (entries: readonly { file: string }[]) => {
    const names = new Map<string, number>();
    for (const entry of entries) {
      for (const match of readFileSync(entry.file, "utf8").matchAll(HASH_PATTERN)) {
        const blob = match[1] === undefined ? undefined : blobs.get(match[1]);
        if (match[1] !== undefined && blob) names.set(match[1], blob.size);
      }
    }
    return names;
  };
  indexes.sort((left, right) => left.changed - right.changed);
  let kept = referenced(indexes);
  let total = [...kept.values()].reduce((sum, size) => sum + size, 0);
  for (let oldest = indexes.shift(); total > maxBytes && oldest; oldest = indexes.shift()) {
    drop(oldest);
    kept = referenced(indexes);
    total = [...kept.values()].reduce((sum, size) => sum + size, 0);
  }
  let removedBlobs = 0;
  for (const [hash, blob] of blobs) {
    if (kept.has(hash)) continue;
    rmSync(blob.file, { force: true });
    removedBlobs += 1;
  }
  return { conversations: removed, blobs: removedBlobs, bytesLeft: total };
}

function safeList(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}
