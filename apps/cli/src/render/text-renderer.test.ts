import { PassThrough } from "node:stream";
import type { AgentEvent } from "@xzatoma/core";
import { expect, it } from "vitest";
import { createTextRenderer } from "./text-renderer.js";

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

function run(events: AgentEvent[]): { stdout: string; stderr: string } {
  const stdout = capture();
  const stderr = capture();
  const render = createTextRenderer({ stdout: stdout.stream, stderr: stderr.stream, color: false });
  for (const event of events) render(event);
  return { stdout: stdout.text(), stderr: stderr.text() };
}

const delta = (text: string): AgentEvent => ({ type: "text-delta", turn: 1, delta: text });

it("streams the model's text with every control shown as an escape, also one split across deltas", () => {
  const { stdout } = run([
    delta("Done.\x1b"),
    delta("[2J\x1b]52;c;Y3VybA==\x07 \u202ereversed\u202c\r\n"),
    delta("next\u0008\u009b1A"),
    { type: "tool-call-requested", turn: 1, toolCallId: "c", toolName: "read_file", input: {} },
  ]);
  expect(stdout).toBe(
    "Done.\\x1b[2J\\x1b]52;c;Y3VybA==\\x07 \\u202ereversed\\u202c\\r\nnext\\b\\x9b1A\n",
  );
});

it("shows tool names, inputs and errors escaped on stderr", () => {
  const { stderr } = run([
    {
      type: "tool-call-requested",
      turn: 1,
      toolCallId: "c",
      toolName: "terminal\x1b]0;x\x07",
      input: { command: "bash setup.sh #\r\x1b[2Kls -la", cwd: "." },
    },
    {
      type: "tool-result",
      turn: 1,
      toolCallId: "c",
      toolName: "terminal",
      durationMs: 1,
      result: {
        success: false,
        output: "",
        error: "exit 1\n\x1b[31mfake\x1b[0m \u2066x",
        truncated: false,
        metadata: {},
      },
    },
  ]);
  expect(stderr).toBe(
    "→ terminal\\x1b]0;x\\x07 bash setup.sh #\\r\\x1b[2Kls -la .\n" +
      "  ✗ exit 1\n\\x1b[31mfake\\x1b[0m \\u2066x\n",
  );
});
