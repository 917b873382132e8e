// The text the model reads for `delete_path`; file-tools-descriptions.test.ts snapshots it.
export const DELETE_PATH_DESCRIPTION = `Delete a file, a directory or a symlink (the link, not its target). The workspace root cannot be deleted.`;
