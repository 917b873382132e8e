import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  startScriptedOpenAI,
  type ChatView,
  type ScriptedOpenAI,
} from "@xzatoma/scripted-servers/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentRuntime } from "../agent-runtime.js";
import { loadConfig } from "../config-loader/load-config.js";
import { resolveRuntimeConfig } from "../resolve-config.js";

let base: string;
let home: string;
let workspace: string;
let server: ScriptedOpenAI | undefined;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "xz-hooks-"));
  home = path.join(base, "home");
  workspace = path.join(base, "workspace");
  await mkdir(workspace, { recursive: true });
  await mkdir(home, { recursive: true });
  await writeFile(path.join(workspace, "notes.txt"), "NOTES-CONTENT\n");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(base, { recursive: true, force: true });
});

/** The model reads notes.txt, then answers; returns the tool message it saw. */
async function readWithHooks(hooks: Record<string, unknown>): Promise<string> {
  const seen: ChatView[] = [];
  server = await startScriptedOpenAI({
    scenario: (request, index) => {
      seen.push(request);
      return index === 0
        ? { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] }
        : { content: "done" };
    },
    apiKey: "sk-test",
    models: ["scripted-1"],
  });
  const config = resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: server.url, model: "scripted-1" } },
      agent: { terminal: { sandbox: false } },
      persistence: { data_dir: path.join(home, "data"), enabled: false },
      hooks,
    },
    { homeDir: home, env: {} },
  );
  const runtime = await createAgentRuntime(
    config,
    { warn: () => undefined },
    {
      workspace,
      modes: { chatMode: "write", approvalPolicy: "never" },
      env: { OPENAI_API_KEY: "sk-test", PATH: process.env["PATH"] ?? "" },
      skills: false,
    },
  );
  try {
    await runtime.run("read the notes");
  } finally {
    await runtime.close();
  }
  return seen[1]?.messages.findLast((m) => m.role === "tool")?.content ?? "";
}

const hook = (command: string, timeout?: number) => [
  {
    matcher: "read_file|write_file",
    hooks: [{ type: "command", command, ...(timeout ? { timeout } : {}) }],
  },
];

describe("hooks", () => {
  it("gives PreToolUse the event as JSON and lets the call run on exit 0", async () => {
    const log = path.join(base, "event.json");
    const tool = await readWithHooks({ PreToolUse: hook(`cat > ${JSON.stringify(log)}`) });
    expect(tool).toContain("NOTES-CONTENT");
    const event = JSON.parse(await readFile(log, "utf8"));
    expect(event).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "read_file",
      tool_input: { path: "notes.txt" },
    });
  });

  it("refuses the call when PreToolUse exits 2, its standard error reaching the model", async () => {
    const tool = await readWithHooks({
      PreToolUse: hook("echo 'notes are off limits' >&2; exit 2"),
    });
    expect(tool).toContain("Refused by a PreToolUse hook: notes are off limits");
    expect(tool).not.toContain("NOTES-CONTENT");
  });

  it("refuses the call when PreToolUse times out or fails (fail closed)", async () => {
    const timedOut = await readWithHooks({ PreToolUse: hook("sleep 30", 1) });
    expect(timedOut).toContain("a PreToolUse hook failed (timed out after 1 s)");
    expect(timedOut).not.toContain("NOTES-CONTENT");
    const failed = await readWithHooks({ PreToolUse: hook("exit 1") });
    expect(failed).toContain("a PreToolUse hook failed");
  });

  it("adds a PostToolUse hook's exit-2 message to the result", async () => {
    const tool = await readWithHooks({
      PostToolUse: hook("echo 'remember the style guide' >&2; exit 2"),
    });
    expect(tool).toContain("NOTES-CONTENT");
    expect(tool).toContain("PostToolUse hook: remember the style guide");
  });

  it("a project's hooks do not apply until the project is trusted", async () => {
    await mkdir(path.join(workspace, ".xzatoma"), { recursive: true });
    const marker = path.join(base, "project-hook-ran");
    await writeFile(
      path.join(workspace, ".xzatoma", "config.yaml"),
      `hooks:\n  PreToolUse:\n    - hooks:\n        - command: touch ${JSON.stringify(marker)}\n`,
    );
    const loaded = await loadConfig({
      env: {},
      homeDir: home,
      cwd: workspace,
      projectDir: workspace,
    });
    expect(loaded.config.hooks?.PreToolUse ?? []).toEqual([]);
    expect(loaded.warnings.join("\n")).toContain("hooks.PreToolUse");
    expect(existsSync(marker)).toBe(false);
  });
});
