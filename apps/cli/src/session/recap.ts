import type { Message } from "@xzatoma/conversation";
import { toTerminalSafeLine } from "../render/terminal-safe.js";

/** Options of {@link formatRecap}. */
export interface RecapOptions {
  readonly color: boolean;
  /** Exchanges (a message of the person and what followed) shown. Default 3. */
  readonly exchanges?: number;
  /** Characters shown of each message. Default 160. */
  readonly width?: number;
}

/** Files named at most; the rest are counted. */
const MAX_FILES = 8;

function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const characters = Array.from(flat);
  const shown = characters.length > width ? `${characters.slice(0, width - 1).join("")}…` : flat;
  return toTerminalSafeLine(shown, { strict: true });
}

/**
 * What was said when a conversation resumes: its last few exchanges (the person's message,
 * the tools the model called and its last answer), and the files its turns changed. Every
 * word of it comes from history, so it is escaped for the terminal.
 *
 * @example
 * formatRecap([userMessage("hi"), assistantMessage("Hello.")], [], { color: false })
 * // "Recap (1 exchange):\n  you: hi\n  xzatoma: Hello.\n"
 */
export function formatRecap(
  messages: readonly Message[],
  filesChanged: readonly string[],
  options: RecapOptions,
): string {
  const width = options.width ?? 160;
  const dim = (text: string) => (options.color ? `\x1b[2m${text}\x1b[22m` : text);
  const bold = (text: string) => (options.color ? `\x1b[1m${text}\x1b[22m` : text);
  // Exchanges begin at each message of the person.
  const exchanges: Message[][] = [];
  for (const message of messages) {
    if (message.role === "system") continue;
    if (message.role === "user" || exchanges.length === 0) exchanges.push([]);
    exchanges.at(-1)?.push(message);
  }
  const shown = exchanges.slice(-(options.exchanges ?? 3));
  const lines: string[] = [];
  const earlier = exchanges.length - shown.length;
  lines.push(
    bold(
      `Recap (${shown.length === 1 ? "1 exchange" : `${shown.length} exchanges`}${earlier > 0 ? ` of ${exchanges.length}` : ""}):`,
    ),
  );
  for (const exchange of shown) {
    const asked = exchange.find((message) => message.role === "user");
    if (asked) lines.push(`  ${bold("you:")} ${oneLine(asked.content, width)}`);
    const tools = exchange.flatMap((message) =>
      message.role === "assistant" ? message.toolCalls.map((call) => call.name) : [],
    );
    if (tools.length > 0) {
      const counts = new Map<string, number>();
      for (const tool of tools) counts.set(tool, (counts.get(tool) ?? 0) + 1);
      const named = [...counts].map(([tool, count]) => (count === 1 ? tool : `${tool} ×${count}`));
      lines.push(dim(`  (tools: ${toTerminalSafeLine(named.join(", "), { strict: true })})`));
    }
    const answer = exchange.findLast(
      (message) => message.role === "assistant" && message.content.trim() !== "",
    );
    if (answer) lines.push(`  ${bold("xzatoma:")} ${oneLine(answer.content, width)}`);
  }
  if (filesChanged.length > 0) {
    const named = filesChanged.slice(0, MAX_FILES).map((file) => toTerminalSafeLine(file));
    const more = filesChanged.length - named.length;
    lines.push(
      `${bold("Files changed:")} ${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
