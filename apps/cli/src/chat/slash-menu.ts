import { displayWidth } from "../render/display-width.js";

/** One command offered by the slash menu. */
export interface SlashMenuEntry {
  /** `/mode` */
  readonly name: string;
  /** What follows the name in the help, `planning|write`; empty when it takes nothing. */
  readonly usage: string;
  /** The first line of its help. */
  readonly help: string;
}

/**
 * The menu's entries, read from the chat's help text (`SLASH_HELP`), so a command that is
 * documented there is offered without a second list to keep in step. A line of the help
 * names a command when it starts with two spaces and `/`, and its help follows two or more
 * spaces; a name documented twice (`/context`, `/context summary`) is offered once.
 */
export function slashMenuEntries(helpText: string): SlashMenuEntry[] {
  const entries: SlashMenuEntry[] = [];
  const seen = new Set<string>();
  for (const line of helpText.split("\n")) {
    const match = /^ {2}(\/\S+)((?: \S+)*)\s{2,}(\S.*)$/.exec(line);
    if (!match) continue;
    const name = match[1] ?? "";
    if (seen.has(name)) continue;
    seen.add(name);
    entries.push({ name, usage: (match[2] ?? "").trim(), help: (match[3] ?? "").trim() });
  }
  return entries;
}

/**
 * The entries that match what is typed, best first: the menu is open while the text is a
 * `/` and a word with no space yet. The name typed in full comes first, then names that
 * start with the word, then names that contain it. Undefined when the menu is closed (not
 * a command, or an argument is being typed).
 */
export function filterSlashMenu(
  entries: readonly SlashMenuEntry[],
  text: string,
): SlashMenuEntry[] | undefined {
  if (!/^\/\S*$/.test(text)) return undefined;
  const word = text.slice(1).toLowerCase();
  // The command typed in full comes first, so Enter sends it and not a longer name.
  const exact = entries.filter((entry) => entry.name.slice(1).toLowerCase() === word);
  const starts = [
    ...exact,
    ...entries.filter(
      (entry) => !exact.includes(entry) && entry.name.slice(1).toLowerCase().startsWith(word),
    ),
  ];
  const contains = entries.filter(
    (entry) => !starts.includes(entry) && entry.name.slice(1).toLowerCase().includes(word),
  );
  return [...starts, ...contains];
}

/**
 * The menu's lines: up to `rows` entries around the selected one, each `› /name  help`,
 * the help cut to the terminal's width, the selected entry in `inverse`, the others' help
 * in `dim`.
 */
export function renderSlashMenu(
  matches: readonly SlashMenuEntry[],
  options: {
    readonly selected: number;
    readonly rows: number;
    readonly columns: number;
    readonly dim: (text: string) => string;
    readonly inverse: (text: string) => string;
  },
): string[] {
  const { selected, rows } = options;
  const start = Math.max(0, Math.min(selected - rows + 1, matches.length - rows));
  const width = Math.max(...matches.map((entry) => entry.name.length)) + 2;
  return matches.slice(start, start + rows).map((entry, offset) => {
    const chosen = start + offset === selected;
    const label = `${chosen ? "›" : " "} ${entry.name.padEnd(width)}`;
    const room = options.columns - displayWidth(label) - 2;
    const help =
      entry.help.length > room ? `${entry.help.slice(0, Math.max(0, room - 1))}…` : entry.help;
    return chosen ? options.inverse(`${label}${help}`) : `${label}${options.dim(help)}`;
  });
}
