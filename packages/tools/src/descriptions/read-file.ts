// The text the model reads for `read_file`. A reworded description changes model
// behaviour: descriptions.test.ts snapshots it, so every change is reviewed on purpose.
export const READ_FILE_DESCRIPTION = `Read a text file or a line range. Without a range, a file over 500 lines comes back as an outline: its first and last 50 lines.`;
