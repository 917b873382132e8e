import { emitKeypressEvents } from "node:readline";
import { toTerminalSafeLine } from "../render/terminal-safe.js";
import type { ProjectConversation } from "./recent-conversations.js";

/** Where the picker reads keys and draws. */
export interface PickerTerminal {
  readonly input: NodeJS.ReadStream;
  readonly output: NodeJS.WriteStream;
  readonly color: boolean;
}

/** One conversation as a line of the picker: when, how long, and its title. */
export function describeChoice(choice: ProjectConversation, width: number): string {
  const { record } = choice;
  const when = record.startedAt.replace("T", " ").replace(/:\d\d(\.\d+)?Z$/, "");
  const turns = `${record.turns} turn${record.turns === 1 ? "" : "s"}`;
  const files =
    choice.filesChanged.length === 0
      ? ""
      : `, ${choice.filesChanged.length} file${choice.filesChanged.length === 1 ? "" : "s"} changed`;
  const head = `${when}  (${turns}${files}, ${record.status})  `;
  const room = Math.max(10, width - head.length);
  const title = Array.from(record.title.replace(/\s+/g, " "));
  const shown = title.length > room ? `${title.slice(0, room - 1).join("")}…` : title.join("");
  return `${head}${toTerminalSafeLine(shown, { strict: true })}`;
}

/**
 * Asks which conversation to resume: Up/Down (or k/j) move, Enter picks, a number 1-9 picks
 * that line at once, Esc, q or Ctrl-C picks none. Resolves the conversation's id, or
 * undefined when none was picked. Needs a terminal (raw mode); the caller checks.
 */
export function pickConversation(
  choices: readonly ProjectConversation[],
  terminal: PickerTerminal,
): Promise<string | undefined> {
  const { input, output, color } = terminal;
  const width = Math.max(40, (output.columns || 80) - 6);
  const lines = choices.map((choice) => describeChoice(choice, width));
  let selected = 0;
  const draw = (first: boolean) => {
    if (!first) output.write(`\x1b[${lines.length}A`);
    lines.forEach((line, index) => {
      const number = index < 9 ? `${index + 1}.` : "  ";
      const text = `${index === selected ? "›" : " "} ${number} ${line}`;
      output.write(`\r\x1b[2K${index === selected && color ? `\x1b[7m${text}\x1b[27m` : text}\n`);
    });
  };
  output.write("Resume which conversation? (↑/↓ and Enter, or its number; Esc to cancel)\n");
  draw(true);
  return new Promise((resolve) => {
    emitKeypressEvents(input);
    const wasRaw = input.isRaw;
    input.setRawMode(true);
    input.resume();
    const finish = (id: string | undefined) => {
      input.off("keypress", onKey);
      input.setRawMode(wasRaw);
      input.pause();
      resolve(id);
    };
    const onKey = (text: string | undefined, key: { name?: string; ctrl?: boolean } = {}) => {
      if ((key.ctrl && key.name === "c") || key.name === "escape" || text === "q") {
        finish(undefined);
      } else if (key.name === "up" || text === "k") {
        selected = (selected - 1 + lines.length) % lines.length;
        draw(false);
      } else if (key.name === "down" || text === "j") {
        selected = (selected + 1) % lines.length;
        draw(false);
      } else if (key.name === "return" || key.name === "enter") {
        finish(choices[selected]?.record.id);
      } else if (text !== undefined && /^[1-9]$/.test(text) && Number(text) <= lines.length) {
        selected = Number(text) - 1;
        draw(false);
        finish(choices[selected]?.record.id);
      }
    };
    input.on("keypress", onKey);
  });
}
