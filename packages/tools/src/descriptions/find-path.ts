// The text the model reads for `find_path`; file-tools-descriptions.test.ts snapshots it.
export const FIND_PATH_DESCRIPTION = `Find files and directories whose path matches a glob: * within a name, ** any directories, ? one character, {a,b} alternatives; e.g. **/*.ts. Sorted, directories end with /, in pages. Skips .gitignored paths; names starting with . match only if the glob has the dot.`;
