// The text the model reads for `write_file`; file-tools-descriptions.test.ts snapshots it.
export const WRITE_FILE_DESCRIPTION = `Write a whole text file, creating missing parent directories. To change part of a file, use edit_file.`;
