import { PassThrough } from "node:stream";
import { beforeAll, expect, it } from "vitest";
import { preloadHighlighter } from "./code-highlight.js";
import { createMarkdownStream } from "./markdown-stream.js";

function render(
  chunks: string[],
  color: boolean,
  width?: number,
): { text: string; afterEach: string[] } {
  const output = new PassThrough();
  let text = "";
  output.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const stream = createMarkdownStream(output, {
    color,
    ...(width === undefined ? {} : { width: () => width }),
  });
  const afterEach: string[] = [];
  for (const chunk of chunks) {
    stream.write(chunk);
    afterEach.push(text);
  }
  stream.end();
  return { text, afterEach };
}

it("formats headings, lists and code blocks once their line is complete, across chunk boundaries", () => {
  const { text } = render(["# Ti", "tle\n- one `co", "de` **b**\n```\nx = 1\n``", "`\nend"], true);
  expect(text).toBe(
    "\x1b[1mTitle\x1b[22m\n• one \x1b[36mcode\x1b[39m \x1b[1mb\x1b[22m\n\x1b[2m    x = 1\x1b[22m\nend\n",
  );
});

it("streams plain paragraph text word by word as it arrives", () => {
  const { afterEach, text } = render(["Once upon ", "a time ", "and then"], true);
  // A word is written once a space ends it; the last at the end of the answer.
  expect(afterEach).toEqual(["Once upon", "Once upon a time", "Once upon a time and"]);
  expect(text).toBe("Once upon a time and then\n");
});

it("passes text through unchanged without colour", () => {
  expect(render(["# T\n", "```\ncode\n```\n", "end"], false).text).toBe(
    "# T\n```\ncode\n```\nend\n",
  );
});

/** Removes the styling the Markdown renderer itself adds; whatever ESC is left came from the model. */
const withoutOwnStyling = (text: string) =>
  ["1", "2", "22", "36", "39"].reduce((rest, code) => rest.replaceAll(`\x1b[${code}m`, ""), text);

/** Controls other than the line feed, C1 controls, and the bidi and zero-width characters used above. */
const foreignControls = (text: string) =>
  Array.from(text).filter((character) => {
    const code = character.codePointAt(0) ?? 0;
    return (
      (code < 0x20 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f) || /\p{Cf}/u.test(character)
    );
  });

it("prints an escape sequence split across two deltas as visible text, never as a sequence", () => {
  for (const color of [true, false]) {
    const { text } = render(["Hello \x1b", "[2J world, \x1b]0;ti", "tle\x07 done"], color);
    expect(text).toBe("Hello \\x1b[2J world, \\x1b]0;title\\x07 done\n");
  }
});

it("escapes the model's controls in formatted lines and code blocks, keeping its own styling", () => {
  const { text } = render(
    [
      "# Ti\x1b]52;c;ZXZpbA==\x07tle\n",
      "- `a\u202eb`\n",
      "```\nrm -rf ~\r\x1b[2Kls\n```\n",
      "\u009b2J \u200bend",
    ],
    true,
  );
  expect(text).toBe(
    "\x1b[1mTi\\x1b]52;c;ZXZpbA==\\x07tle\x1b[22m\n" +
      "• \x1b[36ma\\u202eb\x1b[39m\n" +
      "\x1b[2m    rm -rf ~\\r\\x1b[2Kls\x1b[22m\n" +
      "\\x9b2J \\u200bend\n",
  );
  expect(foreignControls(withoutOwnStyling(text))).toEqual([]);
});

/** The text as a terminal shows it: the styling removed. */
const STYLING = new RegExp(String.raw`\x1b\[[0-9;]*m`, "g");
const plain = (text: string) => text.replace(STYLING, "");

beforeAll(async () => {
  await preloadHighlighter();
});

it("wraps a paragraph on words at the width, never inside a word", () => {
  const words =
    "The quick brown fox jumps over the lazy dog and keeps running through the forest until night falls.";
  // Streamed in odd pieces, as a model sends it.
  const chunks = words.match(/.{1,7}/g) ?? [];
  for (const color of [true, false]) {
    const lines = plain(render(chunks, color, 40).text)
      .trimEnd()
      .split("\n");
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(lines.join(" ")).toBe(words);
  }
});

it("styles inline Markdown that arrives split across chunks", () => {
  const { text } = render(
    ["See **bo", "ld words** and `a b", "` and [the do", "cs](https://x.test/d) now"],
    true,
  );
  expect(text).toBe(
    "See \x1b[1mbold words\x1b[22m and \x1b[36ma b\x1b[39m and \x1b[4mthe docs\x1b[24m \x1b[2m(https://x.test/d)\x1b[22m now\n",
  );
});

it("wraps a list item with a hanging indent", () => {
  const { text } = render(
    ["- one two three four five six seven eight nine ten eleven\n"],
    true,
    24,
  );
  expect(plain(text)).toBe("• one two three four\n  five six seven eight\n  nine ten eleven\n");
});

it("draws a table with aligned columns, narrowed and wrapped to fit the width", () => {
  const table =
    "| name | description |\n|---|---|\n| alpha | the first letter of the Greek alphabet |\n| b | `two` |\n";
  const wide = plain(render([table, "after"], true, 80).text);
  expect(wide).toBe(
    [
      "┌───────┬────────────────────────────────────────┐",
      "│ name  │ description                            │",
      "├───────┼────────────────────────────────────────┤",
      "│ alpha │ the first letter of the Greek alphabet │",
      "│ b     │ two                                    │",
      "└───────┴────────────────────────────────────────┘",
      "after",
      "",
    ].join("\n"),
  );
  const narrow = plain(render([table], false, 30).text)
    .trimEnd()
    .split("\n");
  for (const line of narrow) expect(line.length).toBeLessThanOrEqual(30);
  expect(narrow.join("\n")).toContain("│ alpha │ the first letter   │");
});

it("keeps a table as written when the output is not a terminal", () => {
  expect(render(["| a | b |\n|---|---|\n| 1 | 2 |\n"], false).text).toBe(
    "| a | b |\n|---|---|\n| 1 | 2 |\n",
  );
});

it("highlights a code block by its language, and only with colour", () => {
  const block = "```ts\nconst answer = 42; // why\n```\n";
  const { text } = render([block], true);
  expect(text).toContain("\x1b[35mconst\x1b[39m");
  expect(text).toContain("\x1b[33m42\x1b[39m");
  expect(text).toContain("\x1b[90m// why\x1b[39m");
  expect(plain(text)).toBe("    const answer = 42; // why\n");
  expect(render([block], false).text).toBe(block);
});

it("highlights a comment that spans lines on each of its lines", () => {
  const { text } = render(["```js\n/* one\ntwo */ let x;\n```\n"], true);
  expect(text.split("\n")[1]).toBe("    \x1b[90mtwo */\x1b[39m \x1b[35mlet\x1b[39m x;");
});
