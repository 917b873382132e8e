// The text the model reads for `find_path`; file-tools-descriptions.test.ts snapshots it.
export const FIND_PATH_DESCRIPTION = `Find files and directories in the workspace whose path matches a glob.

\`glob\` is matched against the whole path relative to the workspace root, with \`/\` separators: \`*\` matches within one name, \`**\` any number of directories, \`?\` one character, \`[abc]\` one of a set, \`{ts,tsx}\` alternatives. Examples: \`**/*.ts\`, \`src/**/test_*.py\`, \`docs/*.{md,txt}\`.

Results are sorted, directories end with \`/\`, and come in pages: \`limit\` (default 50, at most 1000) from \`offset\` (default 0); the answer says which page it shows and the offset of the next. Paths ignored by .gitignore and the .git directory are skipped; names starting with \`.\` match only when the glob spells the dot (\`.github/**\`). Symlinks are listed, not followed.`;
