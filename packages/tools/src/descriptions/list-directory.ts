// The text the model reads for `list_directory`; snapshotted in descriptions.test.ts.
export const LIST_DIRECTORY_DESCRIPTION = `List the entries of a directory in the workspace.

Give \`path\` relative to the workspace root (\`.\` for the root). Set \`recursive\` to list everything below it (\`.git\` is skipped). \`pattern\` filters entries by file name with \`*\` and \`?\` wildcards, for example \`*.ts\`.

Each line is \`<path> <file|dir|symlink> <size in bytes>\`, sorted by path. Very long listings are cut; narrow them with \`path\` or \`pattern\`.`;
