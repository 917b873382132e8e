// The text the model reads for `write_file`; file-tools-descriptions.test.ts snapshots it.
export const WRITE_FILE_DESCRIPTION = `Write a whole text file in the workspace, creating it and its parent directories when needed.

Give \`path\` relative to the workspace root and the complete new \`content\`. Creating a new file runs at once; replacing an existing file may need a person's confirmation. To change part of a file, use edit_file instead. Protected paths (git hooks and config, shell startup files, editor tasks) and paths outside the workspace are refused.`;
