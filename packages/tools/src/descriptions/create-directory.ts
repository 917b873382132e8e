// The text the model reads for `create_directory`; file-tools-descriptions.test.ts snapshots it.
export const CREATE_DIRECTORY_DESCRIPTION = `Create a directory in the workspace, with any missing parent directories.

Give \`path\` relative to the workspace root. An existing directory is not an error. Protected paths and paths outside the workspace are refused.`;
