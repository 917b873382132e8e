import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  createWorkspaceCheckpoints,
  DEFAULT_CHECKPOINT_MAX_BYTES,
  pruneCheckpoints,
  type WorkspaceCheckpoints,
} from "@xzatoma/persistence";
import type { ChangeRecorder } from "@xzatoma/tools";

/** What the runtime needs of a conversation's checkpoints (see `xzatoma rewind`). */
export interface TurnCheckpoints {
  /** Give this to the workspace context: the file tools and the sandbox's apply call it. */
  readonly changes: ChangeRecorder;
  /**
   * Starts recording for `workspace` once history is on: `conversationId` gives the
   * conversation's id, or with `store` makes it (before a change is recorded); `firstTurn` continues a resumed conversation's numbering. Called
   * again, it ends recording for the previous conversation first.
   */
  attach(options: {
    readonly workspace: string;
    readonly conversationId: (store: boolean) => string | undefined;
    readonly firstTurn: number;
  }): void;
  /** A model turn began. */
  startTurn(): void;
  /** A run ended: what its last turn left is recorded. */
  endRun(): void;
  /** The conversation was cleared: numbering starts again for the next one. */
  reset(): void;
  /** Keeps the checkpoints within their size cap (oldest conversations' go first). */
  close(): void;
}

/**
 * The checkpoints of one runtime: without history nothing is recorded (there is no
 * conversation to rewind). Blob bytes added are counted in `checkpoints/size.json`, so the
 * full prune (which reads every index) runs only once the cap is passed.
 */
export function createTurnCheckpoints(
  dataDir: string,
  options: {
    /** The cap of the blobs' bytes. Default 2 GiB. */
    readonly maxBytes?: number;
    /** Whether a conversation is still in history (checkpoints of others go first). */
    readonly exists?: () => ((conversationId: string) => boolean) | undefined;
    /** Whether a conversation that changes no file gets an index too. Default true. */
    readonly indexUnchanged?: boolean;
  } = {},
): TurnCheckpoints {
  const maxBytes = options.maxBytes ?? DEFAULT_CHECKPOINT_MAX_BYTES;
  let current: WorkspaceCheckpoints | undefined;
  let addedBefore = 0;
  let attached:
    | {
        workspace: string;
        conversationId: (store: boolean) => string | undefined;
        firstTurn: number;
      }
    | undefined;
  const make = (firstTurn: number) =>
    attached
      ? createWorkspaceCheckpoints(
          {
            dataDir,
            workspace: attached.workspace,
            conversationId: attached.conversationId,
            ...(options.indexUnchanged === false ? { indexUnchanged: false } : {}),
          },
          firstTurn,
        )
      : undefined;
  return {
    changes: {
      recordBefore: (absolutePath, options) => current?.recordBefore(absolutePath, options),
    },
    attach(options) {
      // Attached again (the runtime continues another conversation): the last one's
      // turn ends and its index closes.
      current?.close();
      addedBefore += current?.addedBytes ?? 0;
      attached = { ...options };
      current = make(options.firstTurn);
    },
    startTurn: () => current?.startTurn(),
    endRun: () => current?.endTurn(),
    reset() {
      current?.close();
      addedBefore += current?.addedBytes ?? 0;
      current = make(1);
    },
    close() {
      current?.close();
      const added = addedBefore + (current?.addedBytes ?? 0);
      if (added === 0) return;
      const sizeFile = path.join(dataDir, "checkpoints", "size.json");
      let total = added;
      try {
        total += (JSON.parse(readFileSync(sizeFile, "utf8")) as { bytes: number }).bytes;
      } catch {
        // No count yet: start one.
      }
      if (total > maxBytes) {
        const exists = options.exists?.();
        total = pruneCheckpoints({ dataDir, maxBytes, ...(exists ? { exists } : {}) }).bytesLeft;
      }
      mkdirSync(path.dirname(sizeFile), { recursive: true, mode: 0o700 });
      writeFileSync(sizeFile, JSON.stringify({ bytes: total }));
    },
  };
}
