import { XzatomaError } from "@xzatoma/errors";

/** Why a path was refused. */
export type PathRefusal =
  "outside-workspace" | "symlink-escape" | "system-path" | "invalid-path" | "protected";

/**
 * A path argument that does not resolve inside the workspace root. The message is
 * written for the model: it says what was refused and what to do instead.
 */
export class PathOutsideWorkspaceError extends XzatomaError<{
  readonly path: string;
  readonly refusal: PathRefusal;
}> {
  declare readonly code: "PATH_OUTSIDE_WORKSPACE";
  override readonly name = "PathOutsideWorkspaceError";

  constructor(
    message: string,
    readonly path: string,
    readonly refusal: PathRefusal,
  ) {
    super("PATH_OUTSIDE_WORKSPACE", message, { fields: { path, refusal } });
  }
}

/**
 * A write to a path that stays unwritable even inside the workspace: git hooks and config,
 * shell startup files, the agent's own config, audit log and history database.
 */
export class PathProtectedError extends XzatomaError<{
  readonly path: string;
  readonly refusal: PathRefusal;
}> {
  declare readonly code: "PATH_PROTECTED";
  override readonly name = "PathProtectedError";
  readonly refusal: PathRefusal = "protected";

  constructor(
    message: string,
    readonly path: string,
  ) {
    super("PATH_PROTECTED", message, { fields: { path, refusal: "protected" } });
  }
}
