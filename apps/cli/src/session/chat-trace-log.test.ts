import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AgentEvent } from "@xzatoma/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createChatTraceLog } from "./chat-trace-log.js";

// A token-shaped canary, built at run time so the repository holds no literal a scanner flags.
const TOKEN = `ghp_${"Tr4ceL0g".repeat(5)}`;
let directory: string;
let file: string;

beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "xz-chat-trace-"));
  file = path.join(directory, "logs", "chat.log");
});

afterEach(() => rm(directory, { recursive: true, force: true }));

const lines = async () =>
  (await readFile(file, "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("createChatTraceLog", () => {
  it("redacts the user's prompt and a tool's output before they are written", async () => {
    const log = createChatTraceLog({ file });
    log.record({ type: "run-started", input: `deploy with password=${TOKEN}`, tools: [] });
    log.record({
      type: "tool-result",
      turn: 1,
      toolCallId: "c1",
      toolName: "terminal",
      result: {
        success: false,
        output: "",
        error: `token: ${TOKEN}`,
        truncated: false,
        metadata: {},
      },
      durationMs: 3,
    } as AgentEvent);
    const text = await readFile(file, "utf8");
    expect(text).not.toContain(TOKEN);
    expect((await lines())[0]).toMatchObject({ input: "deploy with password=[REDACTED]" });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("writes the model's streamed text as one line per turn, so a token split over deltas is redacted whole", async () => {
    const log = createChatTraceLog({ file });
    const echoed: string[] = [];
    const live = createChatTraceLog({
      file: path.join(directory, "other.log"),
      echo: (line) => echoed.push(line),
    });
    for (const delta of ["Your token is ", TOKEN.slice(0, 9), TOKEN.slice(9), " keep it safe."]) {
      const event: AgentEvent = { type: "text-delta", turn: 1, delta };
      log.record(event);
      live.record(event);
    }
    log.record({ type: "turn-started", turn: 2 });
    log.record({ type: "text-delta", turn: 2, delta: "Done." });
    log.flush();
    const text = await readFile(file, "utf8");
    expect(text).not.toContain(TOKEN.slice(9));
    expect(await lines()).toEqual([
      expect.objectContaining({
        type: "text",
        turn: 1,
        text: "Your token is [REDACTED] keep it safe.",
      }),
      expect.objectContaining({ type: "turn-started", turn: 2 }),
      expect.objectContaining({ type: "text", turn: 2, text: "Done." }),
    ]);
    // --verbose shows no delta: the answer on the screen is the text.
    expect(echoed).toHaveLength(0);
  });

  it("echoes every event but the streamed text, so --verbose puts no JSON inside the answer", () => {
    const echoed: string[] = [];
    const log = createChatTraceLog({ file, echo: (line) => echoed.push(line) });
    log.record({ type: "turn-started", turn: 1 } as AgentEvent);
    log.record({ type: "text-delta", turn: 1, delta: "Hello" } as AgentEvent);
    log.record({ type: "text-delta", turn: 1, delta: " there." } as AgentEvent);
    log.record({ type: "finished", turn: 1 } as unknown as AgentEvent);
    expect(echoed.map((line) => (JSON.parse(line) as { type: string }).type)).toEqual([
      "turn-started",
      "finished",
    ]);
    expect(echoed.join("")).not.toContain("Hello");
  });
});
