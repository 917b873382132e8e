// The text the model reads for `delete_path`; file-tools-descriptions.test.ts snapshots it.
export const DELETE_PATH_DESCRIPTION = `Delete a file, a symlink or a directory in the workspace.

Give \`path\` relative to the workspace root. A directory is deleted only with \`recursive\` set to true, together with everything in it; the answer says how many items were deleted. A symlink is deleted as a link, never its target. Deleting may need a person's confirmation. The workspace root, protected paths (git hooks and config, shell startup files, editor tasks) and paths outside the workspace are refused.`;
