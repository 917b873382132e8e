import { emitKeypressEvents } from "node:readline";
import { displayWidth } from "../render/display-width.js";
import { toTerminalSafeLine } from "../render/terminal-safe.js";
import {
  bufferOf,
  deleteForward,
  EMPTY_BUFFER,
  insert,
  moveVertically,
  type InputBuffer,
} from "./input-buffer.js";
import { keyAction, type Key } from "./key-bindings.js";
import { createLiveArea } from "./live-area.js";
import type { PromptHistory } from "./prompt-history.js";
import { filterSlashMenu, renderSlashMenu, type SlashMenuEntry } from "./slash-menu.js";

/** Options of {@link createLineEditor}. */
export interface LineEditorOptions {
  readonly input: NodeJS.ReadStream;
  readonly output: NodeJS.WriteStream;
  readonly color: boolean;
  /** The slash menu's commands. */
  readonly commands: readonly SlashMenuEntry[];
  readonly history?: PromptHistory;
  /** The status line under the prompt (see `status-line.ts`); read at each redraw. */
  readonly status?: () => string;
  /** A message was entered (Enter at the prompt); it may have several lines. */
  readonly onLine: (text: string) => void;
  /**
   * Whether a message can be sent now. While it cannot (a turn runs), Enter keeps the
   * message in the prompt and says why, so typing ahead loses nothing. Default: always.
   */
  readonly canSend?: () => boolean;
  /** Ctrl-C. */
  readonly onInterrupt: () => void;
  /** Ctrl-D on an empty prompt or question. */
  readonly onEnd: () => void;
}

/** The chat's input in a terminal: a multi-line prompt, a slash menu and a status line. */
export interface LineEditor {
  /** Sets the prompt of messages (`[PLANNING][...] >>> `) and redraws. */
  setPrompt(prompt: string): void;
  /** Prints `text` (already safe for the terminal) above the prompt. */
  print(text: string): void;
  /**
   * Asks one question in place of the prompt. Resolves the answer, or undefined when
   * `signal` aborts (Ctrl-C) or the input ends (Ctrl-D).
   */
  question(prompt: string, prefill: string, signal?: AbortSignal): Promise<string | undefined>;
  /** Shows a spinner with `label` in the status line; undefined stops it. */
  setActivity(label: string | undefined): void;
  /** Redraws the prompt and status line (after the state they show changed). */
  refresh(): void;
  /** Erases the prompt, gives the terminal back (raw mode, bracketed paste off). */
  close(): void;
}

const ESC = "\x1b[";
const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** Prefix of the second and later lines of a message. */
const CONTINUATION = "... ";
/** Entries the slash menu shows at most. */
const MENU_ROWS = 8;

interface Question {
  readonly prompt: string;
  buffer: InputBuffer;
  readonly resolve: (answer: string | undefined) => void;
}

/**
 * A line editor on raw keys (node:readline's keypress parser, no Interface). It keeps a
 * live area at the bottom of the output: the message being typed (several lines), the
 * slash menu while a command is being typed, and the status line. Output printed meanwhile
 * goes above it, so typing stays possible while an answer streams.
 *
 * Keys: Enter sends; Ctrl-J, Alt-Enter and Shift-Enter (where the terminal reports it, as
 * `CSI 13;2u`) insert a newline; a paste arrives whole (bracketed paste, its newlines kept);
 * Up and Down move between lines and, on the first or last line, through the history;
 * Tab completes the menu's choice; Ctrl-A/E/U/K/W edit as in a shell.
 */
export function createLineEditor(options: LineEditorOptions): LineEditor {
  const { input, output, color } = options;
  const dim = (text: string) => (color ? `${ESC}2m${text}${ESC}22m` : text);
  const inverse = (text: string) => (color ? `${ESC}7m${text}${ESC}27m` : text);
  let prompt = "";
  let buffer: InputBuffer = EMPTY_BUFFER;
  let question: Question | undefined;
  let pasting = false;
  let pasteSawReturn = false;
  let closed = false;
  // History: the index being shown (entries.length: the draft), and the draft itself.
  let historyIndex = Number.POSITIVE_INFINITY;
  let draft = "";
  // Menu: the selected entry, and whether Escape closed it for the current text.
  let menuSelection = 0;
  let menuDismissedFor: string | undefined;
  let activity: string | undefined;
  /** A note under the prompt until the next key (why Enter did not send). */
  let notice: string | undefined;
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;

  let area = createLiveArea(output, () => layout());
  const columns = () => area.columns();
  const rows = () => area.rows();
  const rowsOf = (line: string) => area.rowsOf(line);

  const current = (): InputBuffer => question?.buffer ?? buffer;
  const setCurrent = (next: InputBuffer) => {
    if (question) question.buffer = next;
    else buffer = next;
  };

  const menu = (): SlashMenuEntry[] | undefined => {
    if (question) return undefined;
    if (menuDismissedFor === buffer.text) return undefined;
    const matches = filterSlashMenu(options.commands, buffer.text);
    return matches && matches.length > 0 ? matches : undefined;
  };

  /** The live area's lines, and where its cursor is (line index, column). */
  const layout = (): { lines: string[]; cursorLine: number; cursorColumn: number } => {
    const active = current();
    const first = question?.prompt ?? prompt;
    const textLines = active.text.split("\n");
    const before = active.text.slice(0, active.cursor).split("\n");
    const cursorTextLine = before.length - 1;
    const lines: string[] = [];
    // A message taller than the screen shows the lines around the cursor that fit.
    const room = Math.max(3, rows() - 4 - MENU_ROWS);
    const displayRows = (index: number) =>
      rowsOf((index === 0 ? first : CONTINUATION) + toTerminalSafeLine(textLines[index] ?? ""));
    let from = cursorTextLine;
    let to = cursorTextLine + 1;
    let used = displayRows(cursorTextLine);
    for (let grew = true; grew;) {
      grew = false;
      if (from > 0 && used + displayRows(from - 1) <= room) {
        from -= 1;
        used += displayRows(from);
        grew = true;
      }
      if (to < textLines.length && used + displayRows(to) <= room) {
        used += displayRows(to);
        to += 1;
        grew = true;
      }
    }
    let cursorLine = 0;
    let cursorColumn = 0;
    if (from > 0) lines.push(dim(`${CONTINUATION}(${from} more lines above)`));
    for (let index = from; index < to; index += 1) {
      const prefix = index === 0 ? first : dim(CONTINUATION);
      const text = toTerminalSafeLine(textLines[index] ?? "");
      if (index === cursorTextLine) {
        cursorLine = lines.length;
        cursorColumn =
          displayWidth(index === 0 ? first : CONTINUATION) +
          displayWidth(toTerminalSafeLine(before[cursorTextLine] ?? ""));
      }
      lines.push(prefix + text);
    }
    if (to < textLines.length)
      lines.push(dim(`${CONTINUATION}(${textLines.length - to} more lines below)`));
    const matches = menu();
    if (matches) {
      menuSelection = Math.min(menuSelection, matches.length - 1);
      lines.push(
        ...renderSlashMenu(matches, {
          selected: menuSelection,
          rows: MENU_ROWS,
          columns: columns(),
          dim,
          inverse,
        }),
      );
    }
    if (notice !== undefined) lines.push(dim(notice.slice(0, columns() - 2)));
    const status = options.status?.() ?? "";
    const spinning = activity === undefined ? "" : `${FRAMES[frame] ?? ""} ${activity}`;
    const statusText = [spinning, status].filter((part) => part !== "").join(" · ");
    if (statusText !== "") {
      const room = columns() - 1;
      lines.push(
        dim(displayWidth(statusText) > room ? `${statusText.slice(0, room - 1)}…` : statusText),
      );
    }
    return { lines, cursorLine, cursorColumn };
  };

  const print = (text: string) => area.print(text);
  const redraw = () => {
    if (!closed) area.show();
  };

  /** Puts what was entered into the scrollback, as it was typed. */
  const echo = (first: string, text: string) => {
    const lines = text
      .split("\n")
      .map((line, index) => (index === 0 ? first : dim(CONTINUATION)) + toTerminalSafeLine(line));
    area.printLine(`${lines.join("\n")}\n`);
  };

  const submit = () => {
    if (question) {
      const { prompt: asked, buffer: answer, resolve } = question;
      question = undefined;
      echo(asked, answer.text);
      resolve(answer.text);
      return;
    }
    const text = buffer.text;
    if (options.canSend && !options.canSend()) {
      // Said under the prompt, not in the answer that is streaming above it.
      notice =
        "busy: the message stays here; send it when the answer ends, or Ctrl-C cancels the answer";
      redraw();
      return;
    }
    buffer = EMPTY_BUFFER;
    historyIndex = Number.POSITIVE_INFINITY;
    menuDismissedFor = undefined;
    echo(prompt, text);
    if (text.trim() !== "") options.history?.add(text);
    options.onLine(text);
  };

  const recall = (direction: -1 | 1): boolean => {
    const entries = options.history?.entries() ?? [];
    if (question || entries.length === 0) return false;
    const at = Math.min(historyIndex, entries.length);
    const next = at + direction;
    if (next < 0 || next > entries.length) return false;
    if (at === entries.length) draft = buffer.text;
    historyIndex = next;
    buffer = bufferOf(next === entries.length ? draft : (entries[next] ?? ""));
    return true;
  };

  /** Enter with the menu open: completes the chosen command, and sends it when it takes nothing. */
  const acceptMenu = (matches: SlashMenuEntry[], send: boolean): void => {
    const chosen = matches[menuSelection] ?? matches[0];
    if (!chosen) return;
    if (send && buffer.text.toLowerCase() === chosen.name.toLowerCase()) {
      submit();
      return;
    }
    if (send && chosen.usage === "") {
      buffer = bufferOf(chosen.name);
      submit();
      return;
    }
    buffer = bufferOf(`${chosen.name} `);
  };

  /** Gives the terminal back and stops; `fg` (SIGCONT) takes it again and redraws. */
  const suspend = () => {
    area.close();
    output.write(`${ESC}?2004l`);
    input.setRawMode(false);
    process.once("SIGCONT", () => {
      if (closed) return;
      input.setRawMode(true);
      output.write(`${ESC}?2004h`);
      area = createLiveArea(output, () => layout());
      redraw();
    });
    process.kill(process.pid, "SIGTSTP");
  };

  const onKeypress = (character: string | undefined, key: Key = {}) => {
    if (closed) return;
    if (key.name === "paste-start") {
      pasting = true;
      pasteSawReturn = false;
      return;
    }
    if (key.name === "paste-end") {
      pasting = false;
      redraw();
      return;
    }
    if (pasting) {
      // A paste is text: its newlines (CR, LF or CRLF) stay in the message.
      if (key.name === "return") {
        setCurrent(insert(current(), "\n"));
        pasteSawReturn = true;
        return;
      }
      if (key.name === "enter" && pasteSawReturn) {
        pasteSawReturn = false;
        return;
      }
      pasteSawReturn = false;
      const text = key.name === "enter" ? "\n" : key.name === "tab" ? "\t" : (character ?? "");
      if (text !== "" && !text.startsWith("\x1b")) setCurrent(insert(current(), text));
      return;
    }
    notice = undefined;
    const action = keyAction(character, key);
    if (action === undefined) return;
    const matches = menu();
    switch (action.kind) {
      case "interrupt":
        // At the prompt Ctrl-C clears it; while a turn runs it cancels the turn only.
        if (!question && (!options.canSend || options.canSend())) {
          buffer = EMPTY_BUFFER;
          historyIndex = Number.POSITIVE_INFINITY;
        }
        redraw();
        options.onInterrupt();
        return;
      case "end":
        if (current().text === "") {
          options.onEnd();
          return;
        }
        setCurrent(deleteForward(current()));
        break;
      case "submit":
        if (matches) acceptMenu(matches, true);
        else submit();
        break;
      case "newline":
        setCurrent(insert(current(), "\n"));
        break;
      case "complete":
        if (matches) acceptMenu(matches, false);
        break;
      case "dismiss":
        menuDismissedFor = buffer.text;
        break;
      case "vertical": {
        if (matches) {
          menuSelection = (menuSelection + action.direction + matches.length) % matches.length;
          break;
        }
        const moved = moveVertically(current(), action.direction);
        if (moved) setCurrent(moved);
        else recall(action.direction);
        break;
      }
      case "clear-screen":
        area.clearScreen();
        break;
      case "suspend":
        suspend();
        return;
      case "insert":
        setCurrent(insert(current(), action.text));
        if (!question) menuSelection = 0;
        break;
      case "edit":
        setCurrent(action.apply(current()));
        break;
    }
    if (!question && menuDismissedFor !== undefined && menuDismissedFor !== buffer.text)
      menuDismissedFor = undefined;
    if (!closed) redraw();
  };

  emitKeypressEvents(input);
  input.setRawMode(true);
  input.on("keypress", onKeypress);
  input.resume();
  // Bracketed paste: the terminal marks a paste, so its lines arrive as one message.
  output.write(`${ESC}?2004h`);
  const onResize = () => redraw();
  output.on("resize", onResize);
  // An exit that skips close (an uncaught error) still gives the terminal its pastes back.
  const onExit = () => output.write(`${ESC}?2004l`);
  process.once("exit", onExit);

  return {
    setPrompt(next) {
      prompt = next;
      redraw();
    },
    print,
    question(asked, prefill, signal) {
      return new Promise((resolve) => {
        if (closed || signal?.aborted) {
          resolve(undefined);
          return;
        }
        const onAbort = () => {
          if (question?.resolve !== settle) return;
          question = undefined;
          redraw();
          resolve(undefined);
        };
        const settle = (answer: string | undefined) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(answer);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        question = { prompt: asked, buffer: bufferOf(prefill), resolve: settle };
        redraw();
      });
    },
    setActivity(label) {
      if (label === activity) return;
      activity = label;
      if (label === undefined) {
        if (timer) clearInterval(timer);
        timer = undefined;
      } else if (!timer) {
        timer = setInterval(() => {
          frame = (frame + 1) % FRAMES.length;
          redraw();
        }, 100);
        timer.unref();
      }
      redraw();
    },
    refresh: redraw,
    close() {
      if (closed) return;
      if (timer) clearInterval(timer);
      timer = undefined;
      area.close();
      closed = true;
      const pending = question;
      question = undefined;
      pending?.resolve(undefined);
      input.off("keypress", onKeypress);
      output.off("resize", onResize);
      process.off("exit", onExit);
      output.write(`${ESC}?2004l`);
      input.setRawMode(false);
      input.pause();
    },
  };
}
