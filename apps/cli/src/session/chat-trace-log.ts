import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { AgentEvent } from "@xzatoma/core";
import { redactValue } from "@xzatoma/redaction";
import { toTerminalSafeJson } from "../render/terminal-safe.js";

/** Options of {@link createChatTraceLog}. */
export interface ChatTraceLogOptions {
  /** The log file (`chatLogFile(config)`); its directory is made with mode 0700. */
  readonly file: string;
  /**
   * Also given every event's line as it happens, redacted and escaped for a terminal
   * (`--verbose` writes them to stderr), except the model's streamed text, which the chat
   * shows as its answer.
   */
  readonly echo?: (line: string) => void;
  readonly now?: () => Date;
}

/** The chat trace log of one session. */
export interface ChatTraceLog {
  /** Records one event of the session. */
  record(event: AgentEvent): void;
  /** Writes what is still held (the model's text of an unfinished turn). */
  flush(): void;
}

/**
 * The chat trace log: one JSON line per agent event, appended to `file` (mode 0600), with
 * every string redacted (`redactValue`): tool output, the user's prompt, errors. The
 * model's streamed text is written as one `{"type":"text","turn","text"}` line when its
 * turn's text ends, not a line per delta: a secret streamed over several deltas is
 * redacted whole, where each piece alone would look harmless.
 *
 * @example
 * const log = createChatTraceLog({ file: chatLogFile(config) });
 * runtime.subscribe((event) => log.record(event));
 */
export function createChatTraceLog(options: ChatTraceLogOptions): ChatTraceLog {
  const now = options.now ?? (() => new Date());
  mkdirSync(path.dirname(options.file), { recursive: true, mode: 0o700 });
  const lineOf = (entry: object) =>
    `${toTerminalSafeJson(redactValue({ time: now().toISOString(), ...entry }))}\n`;
  const append = (line: string) => appendFileSync(options.file, line, { mode: 0o600 });
  let text: { turn: number; parts: string[] } | undefined;
  const flush = () => {
    if (text === undefined) return;
    append(lineOf({ type: "text", turn: text.turn, text: text.parts.join("") }));
    text = undefined;
  };
  return {
    record(event) {
      if (event.type === "text-delta") {
        if (text !== undefined && text.turn !== event.turn) flush();
        text ??= { turn: event.turn, parts: [] };
        text.parts.push(event.delta);
      } else {
        flush();
        append(lineOf(event));
      }
      // The answer is on the screen already: a JSON line per streamed piece would land in
      // the middle of it (standard error and output share the terminal).
      if (event.type !== "text-delta") options.echo?.(lineOf(event));
    },
    flush,
  };
}
