// The text the model reads for `edit_file`; file-tools-descriptions.test.ts snapshots it.
export const EDIT_FILE_DESCRIPTION = `Change a text file in the workspace and see the result as a unified diff.

Modes:
- \`edit\`: replace \`old_text\` with \`content\`. \`old_text\` must match exactly one place in the file, whitespace and indentation included; copy it from read_file output and add surrounding lines until it is unique. An edit that would cut a file of 20 or more lines to under a third is refused.
- \`create\`: make a new file with \`content\` (fails if it exists).
- \`overwrite\`: replace the whole existing file with \`content\`; may need a person's confirmation.
- \`append\`: add \`content\` at the end of an existing file.

Give \`path\` relative to the workspace root. Protected paths and paths outside the workspace are refused.`;
