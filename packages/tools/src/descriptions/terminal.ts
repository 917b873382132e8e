// The text the model reads for `terminal`; snapshotted in descriptions.test.ts.
export const TERMINAL_DESCRIPTION = `Run a bash command; returns exit code, stdout and stderr. Read-only commands (ls, cat, grep, ...) run at once, others need approval; destructive, privileged or download-and-run commands are refused. Sandboxed: no network, no stdin. Do not start servers or background jobs.`;
