// The text the model reads for `copy_path`; file-tools-descriptions.test.ts snapshots it.
export const COPY_PATH_DESCRIPTION = `Copy a file or a directory (with everything in it) to a new path in the workspace.

Give \`source\` and \`destination\` relative to the workspace root. The destination must not exist unless \`overwrite\` is true, which replaces it and may need a person's confirmation. Symlinks are copied as links only when they point inside the workspace; others are skipped and listed. Protected paths and paths outside the workspace are refused.`;
