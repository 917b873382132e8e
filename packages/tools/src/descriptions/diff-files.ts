// The text the model reads for `diff_files`; file-tools-descriptions.test.ts snapshots it.
export const DIFF_FILES_DESCRIPTION = `Compare two text files in the workspace and show a unified diff (\`--- a/<path_a>\`, \`+++ b/<path_b>\`, three lines of context).

Give \`path_a\` and \`path_b\` relative to the workspace root. Binary files and files larger than the size limit are refused; very long diffs are cut.`;
