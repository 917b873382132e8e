// The text the model reads for `grep`; file-tools-descriptions.test.ts snapshots it.
export const GREP_DESCRIPTION = `Search the contents of text files in the workspace with a JavaScript regular expression, line by line.

\`pattern\` is a JavaScript regex (no slashes or flags; \`case_sensitive\` defaults to true). Plain text works too; escape special characters such as ( [ { . * + ? with a backslash. \`path\` is a directory (default \`.\`, the workspace root) or one file. \`include\` and \`exclude\` are globs: without a \`/\` they match file names at any depth (\`*.ts\`, \`*.{js,jsx}\`), with one they match the path from the workspace root (\`src/**/*.test.ts\`); \`exclude\` also skips matching directories.

Each match is one line \`path:line: text\`; with \`context_lines\` (0-10) the lines around it come as \`path-line- text\`, and groups are separated by \`--\`. At most \`max_results\` matches (default 100, at most 1000) are shown, with a note when there are more. Files ignored by .gitignore (unless \`path\` names them), the .git directory, binary files and files over the size limit are skipped.`;
