// The text the model reads for `grep`; file-tools-descriptions.test.ts snapshots it.
export const GREP_DESCRIPTION = `Search the lines of text files for a JavaScript regex (plain text works; escape ( [ { . * + ? with \\). Each match is a line path:line: text. Skips .gitignored, binary and very large files.`;
