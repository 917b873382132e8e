// The text the model reads for `diff_files`; file-tools-descriptions.test.ts snapshots it.
export const DIFF_FILES_DESCRIPTION = `Show a unified diff of two text files.`;
