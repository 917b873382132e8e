import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { XzatomaError } from "@xzatoma/errors";

function real(file: string): string {
  try {
    return realpathSync(path.resolve(file));
  } catch {
    return path.resolve(file);
  }
}

/**
 * Whether the workspace `root` is the user's home directory or holds it. Such a workspace
 * holds every user startup file (`~/.bashrc`, `~/.config/...`, `~/.local/bin`, a user
 * site directory's `.pth` files): no list of names covers them all.
 */
export function workspaceHoldsHome(root: string, home: string = homedir()): boolean {
  const relative = path.relative(real(root), real(home));
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * A workspace that is or holds the user's home directory, refused for a run without a
 * person (`run`, `xzatoma agent` unattended, the watcher): there nobody would see a change
 * to a startup file before the next shell runs it.
 */
export class HomeWorkspaceError extends XzatomaError<{
  readonly workspace: string;
  readonly home: string;
}> {
  declare readonly code: "INVALID_ARGUMENT";
  override readonly name = "HomeWorkspaceError";

  constructor(
    readonly workspace: string,
    readonly home: string,
  ) {
    super(
      "INVALID_ARGUMENT",
      `The workspace ${workspace} is the home directory ${home} or holds it, so it holds every startup file of the user; a run without a person is refused there. Use a project directory as the workspace.`,
      { fields: { workspace, home } },
    );
  }
}

/**
 * Throws {@link HomeWorkspaceError} when `root` is or holds the user's home directory.
 * Call it where a run without a person starts.
 */
export function assertUnattendedWorkspace(root: string, home: string = homedir()): void {
  if (workspaceHoldsHome(root, home)) throw new HomeWorkspaceError(real(root), real(home));
}
