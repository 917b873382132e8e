import { PassThrough } from "node:stream";
import { expect, it } from "vitest";
import { createMarkdownStream } from "./markdown-stream.js";

function render(chunks: string[], color: boolean): { text: string; afterEach: string[] } {
  const output = new PassThrough();
  let text = "";
  output.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const stream = createMarkdownStream(output, { color });
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

it("streams plain paragraph text as it arrives", () => {
  const { afterEach } = render(["Once upon ", "a time ", "and then"], true);
  expect(afterEach).toEqual(["Once upon ", "Once upon a time ", "Once upon a time and then"]);
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
