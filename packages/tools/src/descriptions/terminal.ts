// The text the model reads for `terminal`; snapshotted in descriptions.test.ts.
export const TERMINAL_DESCRIPTION = `Run a shell command in the workspace and get its exit code, stdout and stderr.

Give \`command\` as you would type it in bash, and optionally \`cwd\` (a directory relative to the workspace root) and \`timeout_seconds\`.

Plain read-only commands (ls, cat, grep, find, head, wc, ...) on paths inside the workspace run at once. Other commands need the user's approval and may be refused; commands that could destroy data, escalate privileges, download and run code, or reach outside the workspace are always refused. Commands run without standard input, in a sandbox where the rest of the filesystem is read-only and there is no network, and are stopped after the timeout (default 30 s) together with everything they started. Do not start servers or background jobs.`;
