import {
  assertUnattendedWorkspace,
  createPathGuard,
  createSecretExposure,
  type PathGuard,
  type SecretExposure,
} from "@xzatoma/safety";
import { createWorkspaceLock, type WorkspaceLock } from "./workspace-lock.js";

/**
 * Where the file tools read and write text when someone else holds the files: an editor
 * over ACP, whose unsaved buffers are newer than the disk. Paths are absolute and have
 * already passed the path guard (the root and the protected paths apply unchanged).
 */
export interface FileAccess {
  /** The file's current text (an open buffer's, saved or not). Rejects when it cannot be read. */
  readTextFile(absolutePath: string): Promise<string>;
  /** Replaces the file's text (creating it). Rejects when it cannot be written. */
  writeTextFile(absolutePath: string, content: string): Promise<void>;
}

/**
 * Records what a change is about to replace, before it reaches the workspace (checkpoints
 * for `xzatoma rewind`). Every file tool calls it before it writes, deletes or moves, and
 * the sandbox's apply before each change of a command's change set, under the workspace's
 * lock. Synchronous; throws when it cannot record, and the change then does not happen.
 */
export interface ChangeRecorder {
  /**
   * Records what `absolutePath` holds now (once per turn); with `tree`, every entry below a
   * directory too. Paths outside the workspace are ignored.
   */
  recordBefore(absolutePath: string, options?: { readonly tree?: boolean }): void;
}

/** What every built-in tool needs to know about the workspace it works in. */
export interface WorkspaceContext {
  /** The real absolute path of the workspace root. */
  readonly root: string;
  /** Resolves and checks every path argument against the root. */
  readonly pathGuard: PathGuard;
  /**
   * Whether secrets may have reached the model in this session: reading tools record it,
   * network tools consult it (a request to a host the user has not allowed then needs a
   * person's yes). Share it with anything else that reads or sends for the same session.
   */
  readonly exposure: SecretExposure;
  /**
   * Reads and writes of read_file, write_file and edit_file go here instead of the disk,
   * after the path guard has checked them. Absent: the disk.
   */
  readonly files?: FileAccess;
  /**
   * The lock every change to the workspace's files takes: the file tools' writes and the
   * terminal's apply of a sandboxed command (see {@link withWorkspaceLock}).
   */
  readonly lock: WorkspaceLock;
  /** Where changes are recorded before they happen (checkpoints). Absent: nowhere. */
  readonly changes?: ChangeRecorder;
}

/** Options of {@link createWorkspaceContext}. */
export interface WorkspaceContextOptions {
  /** The workspace root; it must exist. */
  readonly root: string;
  /**
   * Paths that stay unwritable even inside the root, besides the built-in ones (git hooks
   * and config, shell startup files): the agent's own config, audit log and history DB.
   */
  readonly protectedPaths?: readonly string[];
  /** The session's secret-exposure tracker; a new one by default. */
  readonly exposure?: SecretExposure;
  /** Where the file tools read and write text instead of the disk (an editor's buffers). */
  readonly files?: FileAccess;
  /**
   * The lock of another context of the same workspace in this process, to share; a new one
   * by default.
   */
  readonly lock?: WorkspaceLock;
  /**
   * The run has no person to ask (`run`, an unattended `xzatoma agent`, the watcher). Then a
   * root that is, or holds, the user's home directory (`home`, default `os.homedir()`) is
   * refused with `HomeWorkspaceError` (code `INVALID_ARGUMENT`): it holds every user startup
   * file, and nobody would see a change to one before the next shell runs it.
   */
  readonly unattended?: boolean;
  /** The user's home directory, for `unattended`. Default `os.homedir()`. */
  readonly home?: string;
  /** Where changes are recorded before they happen (checkpoints). */
  readonly changes?: ChangeRecorder;
}

/**
 * Creates the context the tool factories take. Build one per workspace; two agents with
 * two workspaces in one process each get their own.
 */
export function createWorkspaceContext(options: WorkspaceContextOptions): WorkspaceContext {
  if (options.unattended === true) assertUnattendedWorkspace(options.root, options.home);
  const pathGuard = createPathGuard({
    root: options.root,
    ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}),
  });
  return {
    root: pathGuard.root,
    pathGuard,
    exposure: options.exposure ?? createSecretExposure(),
    ...(options.files ? { files: options.files } : {}),
    lock: options.lock ?? createWorkspaceLock(),
    ...(options.changes ? { changes: options.changes } : {}),
  };
}

/**
 * Runs `change` under the workspace's lock, after every change to its files started before
 * it (a file tool's write, another apply). The terminal tool wraps its apply in it:
 * `await withWorkspaceLock(workspace, () => run.finish())`.
 */
export function withWorkspaceLock<T>(
  workspace: Pick<WorkspaceContext, "lock">,
  change: () => Promise<T>,
): Promise<T> {
  return workspace.lock.run(change);
}
