// The text the model reads for `file_metadata`; file-tools-descriptions.test.ts snapshots it.
export const FILE_METADATA_DESCRIPTION = `Show facts about a file or directory in the workspace without reading it: type, size in bytes, permissions, last modification time (RFC 3339, UTC), hard link count, the line count of a text file and the entry count of a directory. A symlink is reported with the path it resolves to.

Give \`path\` relative to the workspace root.`;
