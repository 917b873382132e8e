// The text the model reads for `move_path`; file-tools-descriptions.test.ts snapshots it.
export const MOVE_PATH_DESCRIPTION = `Move or rename a file or a directory (with everything in it) inside the workspace.

Give \`source\` and \`destination\` relative to the workspace root. The destination is the new path itself, not a directory to move into; it must not exist unless \`overwrite\` is true, which replaces it and may need a person's confirmation. A symlink is moved as a link. Protected paths and paths outside the workspace are refused.`;
