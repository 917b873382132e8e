// The text the model reads for `create_directory`; file-tools-descriptions.test.ts snapshots it.
export const CREATE_DIRECTORY_DESCRIPTION = `Create a directory and any missing parents. An existing directory is not an error.`;
