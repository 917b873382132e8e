// The text the model reads for `list_directory`; snapshotted in descriptions.test.ts.
export const LIST_DIRECTORY_DESCRIPTION = `List a directory: <path> <file|dir|symlink> <bytes> per entry. Long listings are cut; narrow them with path or pattern.`;
