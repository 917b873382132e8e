// The text the model reads for `edit_file`; file-tools-descriptions.test.ts snapshots it.
export const EDIT_FILE_DESCRIPTION = `Change a text file; returns a unified diff. mode edit: replace old_text, which must match exactly one place, whitespace included (copy it from read_file); create: a new file; overwrite: the whole file; append: add to the end.`;
