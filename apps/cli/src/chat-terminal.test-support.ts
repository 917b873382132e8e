// Starts the built `xzatoma chat` in a new tmux session for the end-to-end tests, with a
// clean environment (only HOME, PATH and TERM, plus what the test adds).
import { BIN } from "./cli.test-support.js";
import { newSession, tmux } from "./terminal.test-support.js";

/** Options of {@link startChatInTmux}. */
export interface ChatInTmux {
  /** The tmux session's name. */
  readonly session: string;
  /** The chat's HOME. */
  readonly home: string;
  /** The arguments after `chat`, in order. */
  readonly args: readonly string[];
  /** The terminal's width; 160 unless given. */
  readonly columns?: number;
  /** The directory the chat starts in; tmux's own unless given. */
  readonly cwd?: string;
  /** Variables after HOME, PATH and TERM; `NO_COLOR=1` unless given. */
  readonly environment?: readonly string[];
  /** A command that runs the chat, such as a shell that records its exit status. */
  readonly launcher?: readonly string[];
}

/**
 * Starts `xzatoma chat ARGS` in a new detached tmux session 50 lines high. The pane stays
 * after the process exits, so the last screen can still be read. It does not wait for the
 * prompt: each test waits for the prompt it expects.
 */
export function startChatInTmux(options: ChatInTmux): void {
  newSession(
    options.session,
    "-x",
    String(options.columns ?? 160),
    "-y",
    "50",
    ...(options.cwd === undefined ? [] : ["-c", options.cwd]),
    "env",
    "-i",
    `HOME=${options.home}`,
    `PATH=${process.env["PATH"] ?? ""}`,
    "TERM=xterm-256color",
    ...(options.environment ?? ["NO_COLOR=1"]),
    ...(options.launcher ?? []),
    process.execPath,
    BIN,
    "chat",
    ...options.args,
  );
  tmux("set-option", "-t", options.session, "remain-on-exit", "on");
}
