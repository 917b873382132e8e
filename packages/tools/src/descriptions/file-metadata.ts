// The text the model reads for `file_metadata`; file-tools-descriptions.test.ts snapshots it.
export const FILE_METADATA_DESCRIPTION = `Show type, size, permissions, modification time, line or entry count and symlink target of a path, without reading it.`;
