// Drives `xzatoma chat` in a real terminal for the end-to-end tests: tmux sessions, what
// their screen shows, and keys typed into them.
import { execFileSync } from "node:child_process";

/** Runs one tmux command and returns what it printed. */
export function tmux(...args: string[]): string {
  return execFileSync("tmux", args, { encoding: "utf8" });
}

/** The screen of one tmux session and the keys typed into it. */
export interface TerminalSession {
  /** The pane's last 300 lines, wrapped lines joined. */
  screen(): string;
  /**
   * Polls the screen until `predicate` holds; past `timeoutMs` it throws with what the
   * screen showed. Generous by default: a loaded machine answers slowly, and a passing test
   * waits only as long as it must.
   */
  waitFor(predicate: (text: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /** Types `text` and Enter. */
  type(text: string): void;
}

/** The session named by `name()` (read at each call, so tests may start a new one). */
export function terminalSession(
  name: () => string,
  options: { readonly timeoutMs?: number; readonly pollMs?: number } = {},
): TerminalSession {
  const screen = () => tmux("capture-pane", "-p", "-J", "-t", name(), "-S", "-300");
  return {
    screen,
    async waitFor(predicate, what, timeoutMs = options.timeoutMs ?? 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const text = screen();
        if (predicate(text)) return text;
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${what}; the screen shows:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
      }
    },
    type(text) {
      tmux("send-keys", "-t", name(), "-l", text);
      tmux("send-keys", "-t", name(), "Enter");
    },
  };
}

/**
 * `tmux new-session -d -s NAME ...`, once more if the server was just exiting (another test
 * file's last session ended at that moment: "server exited unexpectedly").
 */
export function newSession(name: string, ...command: string[]): void {
  try {
    tmux("new-session", "-d", "-s", name, ...command);
  } catch {
    tmux("new-session", "-d", "-s", name, ...command);
  }
}

/** Ends the tmux session `name`, if it is still there. */
export function killSession(name: string | undefined): void {
  try {
    if (name) tmux("kill-session", "-t", name);
  } catch {
    // Already gone.
  }
}
