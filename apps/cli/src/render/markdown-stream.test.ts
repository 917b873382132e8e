import { PassThrough } from "node:stream";
import { expect, it } from "vitest";
import { createMarkdownStream } from "./markdown-stream.js";

function render(chunks: string[], color: boolean): string {
  const output = new PassThrough();
  let text = "";
  output.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const stream = createMarkdownStream(output, { color });
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  return text;
}

it("renders complete lines as they arrive, across chunk boundaries", () => {
  const text = render(["# Ti", "tle\n- one `co", "de`\n```\nx = 1\n``", "`\n**done**"], true);
  expect(text).toBe(
    "\x1b[1mTitle\x1b[22m\n• one \x1b[36mcode\x1b[39m\n\x1b[2m    x = 1\x1b[22m\n\x1b[1mdone\x1b[22m\n",
  );
});

it("passes text through unchanged without colour", () => {
  expect(render(["# T\n", "```\ncode\n```\n", "end"], false)).toBe("# T\n```\ncode\n```\nend\n");
});
