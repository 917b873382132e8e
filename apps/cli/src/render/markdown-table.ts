import { displayWidth } from "./display-width.js";
import { renderInline } from "./inline-markdown.js";

/** Whether a line is a row of a Markdown table (`| a | b |`). */
export function isTableRow(line: string): boolean {
  return /^\s*\|.*\|\s*$/.test(line);
}

const isSeparator = (cells: readonly string[]) =>
  cells.length > 0 && cells.every((cell) => /^:?-{1,}:?$/.test(cell.trim()));

/** The cells of a row; `\|` is a pipe inside a cell. */
function cellsOf(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll("\\|", "|"));
}

/** `text` broken into lines no wider than `width` (words first, then characters). */
function wrapCell(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  const push = (word: string) => {
    const candidate = line === "" ? word : `${line} ${word}`;
    if (displayWidth(candidate) <= width) {
      line = candidate;
      return;
    }
    if (line !== "") lines.push(line);
    line = "";
    let rest = word;
    while (displayWidth(rest) > width) {
      let cut = 0;
      let size = 0;
      for (const character of rest) {
        const next = displayWidth(character);
        if (size + next > width) break;
        size += next;
        cut += character.length;
      }
      lines.push(rest.slice(0, Math.max(1, cut)));
      rest = rest.slice(Math.max(1, cut));
    }
    line = rest;
  };
  for (const word of text.split(/\s+/)) if (word !== "") push(word);
  if (line !== "" || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * A Markdown table drawn with box characters, its columns as wide as their widest cell,
 * and narrowed (the widest first, cells wrapped on words) to fit `width` when given. The
 * header is bold with colour. Rows must already be escaped for the terminal. Styling inside
 * cells (`code`, **bold**) is applied after the widths are measured on the plain text.
 */
export function renderTable(
  rows: readonly string[],
  options: { color: boolean; width?: number },
): string {
  const parsed = rows.map(cellsOf);
  const hasHeader = parsed.length > 1 && isSeparator(parsed[1] ?? []);
  const body = parsed.filter((cells, index) => !(index === 1 && hasHeader));
  const count = Math.max(...body.map((cells) => cells.length));
  const plain = (cell: string) =>
    cell.replace(/`([^`]+)`/g, "$1").replace(/\*\*([^*]+)\*\*/g, "$1");
  const widths = Array.from({ length: count }, (_, column) =>
    Math.max(1, ...body.map((cells) => displayWidth(plain(cells[column] ?? "")))),
  );
  if (options.width !== undefined) {
    // Borders take 3 columns a cell and one more.
    const room = options.width - (3 * count + 1);
    while (widths.reduce((sum, value) => sum + value, 0) > room) {
      const widest = widths.indexOf(Math.max(...widths));
      if ((widths[widest] ?? 0) <= 3) break;
      widths[widest] = (widths[widest] ?? 0) - 1;
    }
  }
  const style = (text: string, header: boolean) => {
    const inline = renderInline(text, options.color);
    return header && options.color ? `\x1b[1m${inline}\x1b[22m` : inline;
  };
  const line = (left: string, middle: string, right: string) =>
    `${left}${widths.map((width) => "─".repeat(width + 2)).join(middle)}${right}`;
  const out: string[] = [line("┌", "┬", "┐")];
  body.forEach((cells, rowIndex) => {
    const header = hasHeader && rowIndex === 0;
    const wrapped = widths.map((width, column) => wrapCell(plain(cells[column] ?? ""), width));
    // Cells that fit on one line keep their styling; wrapped ones are printed plain.
    const height = Math.max(...wrapped.map((lines) => lines.length));
    for (let lineIndex = 0; lineIndex < height; lineIndex += 1) {
      const parts = widths.map((width, column) => {
        const lines = wrapped[column] ?? [];
        const text = lines[lineIndex] ?? "";
        const shown = !options.color
          ? text
          : lines.length === 1
            ? style(cells[column] ?? "", header)
            : style(text, header);
        return ` ${shown}${" ".repeat(Math.max(0, width - displayWidth(text)))} `;
      });
      out.push(`│${parts.join("│")}│`);
    }
    if (header) out.push(line("├", "┼", "┤"));
  });
  out.push(line("└", "┴", "┘"));
  return `${out.join("\n")}\n`;
}
