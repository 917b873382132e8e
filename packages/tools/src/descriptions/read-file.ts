// The text the model reads for `read_file`. A reworded description changes model
// behaviour: descriptions.test.ts snapshots it, so every change is reviewed on purpose.
export const READ_FILE_DESCRIPTION = `Read a text file from the workspace.

Give \`path\` relative to the workspace root. To read part of a file, give \`start_line\` and/or \`end_line\` (1-based, inclusive); a missing \`end_line\` means the end of the file.

Without a range, a file of more than 500 lines comes back as an outline: its first and last 50 lines, numbered, so you can ask for the lines you need. Binary files and files larger than the size limit are refused.`;
