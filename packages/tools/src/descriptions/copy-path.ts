// The text the model reads for `copy_path`; file-tools-descriptions.test.ts snapshots it.
// Path rules, protected paths and approvals are said once, in the system prompt.
export const COPY_PATH_DESCRIPTION = `Copy a file or a directory with everything in it. Symlinks leading out of the workspace are skipped.`;
