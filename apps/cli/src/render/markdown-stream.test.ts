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
