// What an event carries, and what a model that read it answers, is text from outside:
// check-event, run-event and results print it through the one escaper, so a window-title
// sequence or a clear-screen in an event's type or a model's answer reaches the terminal as
// visible escapes. The real bin runs as a child process against a scripted model server.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startScriptedOpenAI, type ScriptedOpenAI } from "@xzatoma/scripted-servers/openai";
import type { ResultEvent } from "@xzatoma/xzepr";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatResult } from "./read-results.js";

const BIN = fileURLToPath(new URL("../bin/xzatoma-watcher.js", import.meta.url));
const BUILD = JSON.parse(
  readFileSync(
    new URL("../../../packages/xzepr/src/__fixtures__/build_success_event.json", import.meta.url),
    "utf8",
  ),
) as Record<string, unknown>;
const TITLE = "\x1b]0;pwned\x07";
const CLEAR = "\x1b[2J";

let home: string;
let server: ScriptedOpenAI | undefined;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "xz-watcher-escapes-"));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(home, { recursive: true, force: true });
});

function watcher(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env["PATH"], HOME: home, OPENAI_API_KEY: "sk-test" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The build event with a type and a source that hold terminal sequences, and a plan. */
async function hostileEvent(): Promise<string> {
  const data = BUILD["data"] as { events: Record<string, unknown>[] };
  const plan = { name: `verify${CLEAR}`, tasks: [{ id: "t1", description: "Verify it." }] };
  const file = path.join(home, "event.json");
  await writeFile(
    file,
    JSON.stringify({
      ...BUILD,
      type: `build.success${TITLE}`,
      source: `xzepr.event.receiver.${CLEAR}`,
      data: { ...data, events: [{ ...data.events[0], payload: { plan: JSON.stringify(plan) } }] },
    }),
  );
  return file;
}

function expectNoRawSequences(text: string): void {
  expect(text).not.toContain("\x1b");
  expect(text).not.toContain("\x07");
}

describe("xzatoma-watcher check-event", () => {
  it("prints an event's fields escaped, as text and as JSON", async () => {
    const file = await hostileEvent();
    const text = await watcher(["check-event", file]);
    expect(text.stdout).toContain("\\x1b]0;pwned\\x07");
    expectNoRawSequences(text.stdout);
    expectNoRawSequences(text.stderr);
    const json = await watcher(["check-event", file, "--json"]);
    expectNoRawSequences(json.stdout);
    expect((JSON.parse(json.stdout) as { type: string }).type).toBe(`build.success${TITLE}`);
  });
});

describe("xzatoma-watcher run-event", () => {
  it("prints the model's answer escaped, as text and as JSON", async () => {
    server = await startScriptedOpenAI({
      scenario: () => ({ content: `Verified.${TITLE}${CLEAR}` }),
      apiKey: "sk-test",
      models: ["scripted-1"],
    });
    const config = path.join(home, "config.yaml");
    await writeFile(
      config,
      [
        "provider:",
        "  type: openai",
        "  openai:",
        `    base_url: ${server.url}`,
        "    model: scripted-1",
        "agent:",
        "  terminal:",
        "    sandbox: false",
        "persistence:",
        `  data_dir: ${path.join(home, "data")}`,
        "",
      ].join("\n"),
    );
    const workspace = await mkdtemp(path.join(home, "ws-"));
    const file = await hostileEvent();
    const text = await watcher(["run-event", file, "--workspace", workspace, "--config", config]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe("completed: Verified.\\x1b]0;pwned\\x07\\x1b[2J\n");
    expectNoRawSequences(text.stderr);
    const json = await watcher([
      "run-event",
      file,
      "--workspace",
      workspace,
      "--config",
      config,
      "--json",
    ]);
    expectNoRawSequences(json.stdout);
    const parsed = JSON.parse(json.stdout) as { text: string; type: string };
    expect(parsed).toMatchObject({
      text: `Verified.${TITLE}${CLEAR}`,
      type: `build.success${TITLE}`,
    });
  });
});

describe("xzatoma-watcher results", () => {
  it("prints a result's fields and answer escaped", () => {
    const event = {
      data: {
        status: "completed",
        summary: `Plan 'verify${CLEAR}' completed.`,
        answer: `line one${TITLE}\nline two\u202e`,
        stopReason: "completed",
        durationMs: 1200,
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        trigger: { id: `01J${CLEAR}`, source: "xzepr.event.receiver.r1", type: `build${TITLE}` },
        error: { message: `failed${CLEAR}` },
      },
    } as unknown as ResultEvent;
    const printed = formatResult(event);
    expectNoRawSequences(printed);
    expect(printed).not.toContain("\u202e");
    expect(printed).toContain("build\\x1b]0;pwned\\x07");
    expect(printed).toContain("  | line one\\x1b]0;pwned\\x07\n  | line two\\u202e");
    expect(printed).toContain("error: failed\\x1b[2J");
  });
});
