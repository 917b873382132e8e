/** The read-only programs that run unasked when nothing else is wrong (from the design seeds). */
export const DEFAULT_ALLOWLIST: readonly string[] = [
  "ls",
  "cat",
  "head",
  "tail",
  "grep",
  "find",
  "echo",
  "pwd",
  "which",
  "type",
  "wc",
];
