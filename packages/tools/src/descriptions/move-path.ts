// The text the model reads for `move_path`; file-tools-descriptions.test.ts snapshots it.
export const MOVE_PATH_DESCRIPTION = `Move or rename a file or a directory with everything in it.`;
