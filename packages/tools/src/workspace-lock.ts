/**
 * One lock per workspace that every change to its files takes: the file tools' writes
 * (write_file, edit_file, copy_path, move_path, delete_path, create_directory) and the
 * terminal tool's apply of a sandboxed command's changes. Subagents run in parallel in one
 * process; without it an apply could land between an edit's read and its write (the edit
 * then writes back the text from before the apply), or two applies could interleave.
 *
 * In-process and first come, first served. It serialises changes, not reads.
 */
export interface WorkspaceLock {
  /** Runs `change` once every change started before it has ended; resolves or rejects as it does. */
  run<T>(change: () => Promise<T>): Promise<T>;
}

/** Creates a {@link WorkspaceLock}. The workspace context makes one per workspace. */
export function createWorkspaceLock(): WorkspaceLock {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(change: () => Promise<T>): Promise<T> {
      const result = tail.then(change);
      // The next change waits for this one to end, whether it failed or not.
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
