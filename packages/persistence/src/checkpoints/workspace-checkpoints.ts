import { lstatSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createBlobStore } from "./blob-store.js";
import {
  openCheckpointAppender,
  type CheckpointAppender,
  CHECKPOINT_INDEX_VERSION,
  type CheckpointLine,
} from "./checkpoint-index.js";
import { hashBytes, readFileState, type FileState } from "./file-state.js";

/** Files larger than this are recorded by hash only by default: 8 MiB. */
export const DEFAULT_CHECKPOINT_MAX_FILE_BYTES = 8 * 1024 * 1024;

/** A tree recorded before a whole-tree change holds at most this many entries by default. */
export const DEFAULT_CHECKPOINT_MAX_TREE_ENTRIES = 100_000;

/** Options of {@link createWorkspaceCheckpoints}. */
export interface WorkspaceCheckpointsOptions {
  /** `persistence.data_dir`; checkpoints live in its `checkpoints/` directory. */
  readonly dataDir: string;
  /** The workspace root (its real path). Paths outside it are not recorded. */
  readonly workspace: string;
  /**
   * The conversation the current turn belongs to, or undefined while it has no id yet; what
   * is recorded before it has one is written once it does. `store` is true when a change is
   * about to be recorded: the conversation may be stored then, so the record is on disk
   * before the change happens. A turn's start or end (false) only waits for the id: a turn
   * that changes nothing never stores the conversation early (the first model request of a
   * run is not held up by the history database).
   */
  readonly conversationId: (store: boolean) => string | undefined;
  /** Files larger than this are recorded by hash only. Default 8 MiB. */
  readonly maxFileBytes?: number;
  /** A recorded tree with more entries is refused (the change fails). Default 100,000. */
  readonly maxTreeEntries?: number;
  /**
   * Whether a conversation that changes no file gets an index too (its turns say where it
   * worked, for `chat --continue` and the resume picker). Default true. A service that runs
   * one conversation per event turns it off: what it keeps is what can be rewound, and an
   * index file per event that changed nothing would pile up (nothing prunes an index that
   * holds no blob).
   */
  readonly indexUnchanged?: boolean;
}

/**
 * Records what each turn's changes replace, before they reach the workspace: the file tools
 * call {@link WorkspaceCheckpoints.recordBefore} before they write, delete or move, and the
 * sandbox's apply before each change of a command's change set. A `rewind` restores the
 * states recorded here. Synchronous, so it can run inside the sandbox's per-change judgement.
 */
export interface WorkspaceCheckpoints {
  /**
   * Records what `absolutePath` holds now, unless this turn recorded it already; with
   * `tree`, every entry below a directory too (a delete or move of the whole tree). Throws
   * when it cannot record: the change must not go ahead unrecorded.
   */
  recordBefore(absolutePath: string, options?: { readonly tree?: boolean }): void;
  /** A model turn begins: later records belong to it. Ends the previous turn first. */
  startTurn(): void;
  /** The turn ended: records what each path it changed holds now (for conflict checks). */
  endTurn(): void;
  /**
   * Ends the turn and closes the index file. A later record opens it again. A conversation
   * that changes no file still gets one: its turns say where it worked (`chat --continue` and
   * the resume picker find a project's conversations by it).
   */
  close(): void;
  /** The number of the current turn (1 for the conversation's first), 0 before any. */
  readonly turn: number;
  /** Bytes of new blobs this recorder stored (content already stored costs nothing). */
  readonly addedBytes: number;
}

function relativeOf(workspace: string, absolute: string): string | undefined {
  const relative = path.relative(workspace, absolute);
  if (relative === "" || relative === ".." || relative.startsWith(`..${path.sep}`))
    return undefined;
  if (path.isAbsolute(relative)) return undefined;
  const parts = relative.split(path.sep);
  // Version control is the person's: `.git` is neither copied nor ever restored.
  if (parts[0]?.toLowerCase() === ".git") return undefined;
  return parts.join("/");
}

/**
 * Creates the checkpoint recorder of one runtime's workspace. `firstTurn` is the number the
 * first turn gets (a resumed conversation continues its numbering).
 */
export function createWorkspaceCheckpoints(
  options: WorkspaceCheckpointsOptions,
  firstTurn = 1,
): WorkspaceCheckpoints {
  const directory = path.join(options.dataDir, "checkpoints");
  const blobs = createBlobStore(directory);
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_CHECKPOINT_MAX_FILE_BYTES;
  const maxTreeEntries = options.maxTreeEntries ?? DEFAULT_CHECKPOINT_MAX_TREE_ENTRIES;
  let turn = firstTurn - 1;
  let open = false;
  let recorded = new Set<string>();
  let pending: CheckpointLine[] = [];
  let addedBytes = 0;
  let appender: CheckpointAppender | undefined;

  // Whether the index is written: from the start, or once a change is about to be recorded.
  let writing = options.indexUnchanged ?? true;
  const write = (lines: CheckpointLine[], store = false) => {
    pending.push(...lines);
    if (store) writing = true;
    if (!writing) return;
    const id = options.conversationId(store);
    if (id === undefined) return;
    if (appender?.id !== id) appender = openCheckpointAppender(directory, id);
    appender.append(pending);
    pending = [];
  };

  const capture = (absolute: string): FileState => {
    const stats = lstatSync(absolute, { throwIfNoEntry: false });
    if (stats === undefined || !stats.isFile() || stats.size > maxFileBytes) {
      return readFileState(absolute);
    }
    // One read: the bytes are hashed and stored as they are.
    const bytes = readFileSync(absolute);
    const hash = hashBytes(bytes);
    addedBytes += blobs.put(hash, bytes);
    return { kind: "file", mode: stats.mode & 0o7777, size: bytes.length, hash, stored: true };
  };

  const recordOne = (absolute: string, lines: CheckpointLine[]): FileState | undefined => {
    const relative = relativeOf(options.workspace, absolute);
    if (relative === undefined || recorded.has(relative)) return undefined;
    const state = capture(absolute);
    recorded.add(relative);
    lines.push({ type: "before", turn, path: relative, state });
    return state;
  };

  const recordTree = (absolute: string, lines: CheckpointLine[]) => {
    let entries = 0;
    const visit = (current: string) => {
      for (const name of readdirSync(current).sort()) {
        if (++entries > maxTreeEntries) {
          throw new Error(
            `${current} holds more than ${maxTreeEntries} entries, too many to checkpoint before the change`,
          );
        }
        const inner = path.join(current, name);
        const state = recordOne(inner, lines);
        if (state?.kind === "directory") visit(inner);
      }
    };
    visit(absolute);
  };

  const endTurn = () => {
    if (!open) return;
    open = false;
    const lines: CheckpointLine[] = [];
    for (const relative of [...recorded].sort()) {
      const state = readFileState(path.join(options.workspace, relative));
      lines.push({ type: "after", turn, path: relative, state });
    }
    write(lines);
  };

  return {
    get turn() {
      return turn;
    },
    get addedBytes() {
      return addedBytes;
    },
    startTurn() {
      endTurn();
      turn += 1;
      open = true;
      recorded = new Set();
      write([
        {
          type: "turn",
          version: CHECKPOINT_INDEX_VERSION,
          turn,
          workspace: options.workspace,
          at: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
        },
      ]);
    },
    endTurn,
    close() {
      endTurn();
      appender?.close();
      appender = undefined;
    },
    recordBefore(absolutePath, recordOptions) {
      // A change outside any turn (a tool called directly) still belongs to one.
      if (!open) this.startTurn();
      const lines: CheckpointLine[] = [];
      const absolute = path.resolve(absolutePath);
      const state = recordOne(absolute, lines);
      const alreadyRecorded = state === undefined;
      const relative = relativeOf(options.workspace, absolute);
      if (recordOptions?.tree && relative !== undefined) {
        const current = alreadyRecorded ? readFileState(absolute) : state;
        if (current?.kind === "directory") recordTree(absolute, lines);
      }
      write(lines, true);
    },
  };
}
