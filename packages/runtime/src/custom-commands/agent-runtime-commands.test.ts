import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  startScriptedOpenAI,
  type ChatView,
  type ScriptedOpenAI,
} from "@xzatoma/scripted-servers/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentRuntime } from "../agent-runtime.js";
import { resolveRuntimeConfig } from "../resolve-config.js";

let base: string;
let home: string;
let workspace: string;
let server: ScriptedOpenAI | undefined;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "xz-runtime-commands-"));
  home = path.join(base, "home");
  workspace = path.join(base, "workspace");
  await mkdir(path.join(workspace, ".git"), { recursive: true });
  await mkdir(path.join(home, ".xzatoma", "commands", "git"), { recursive: true });
  await mkdir(path.join(workspace, ".xzatoma", "commands"), { recursive: true });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(base, { recursive: true, force: true });
});

/** Runs one prompt unattended; returns the last user message the model saw, and warnings. */
async function run(prompt: string) {
  const seen: ChatView[] = [];
  server = await startScriptedOpenAI({
    scenario: (request) => {
      seen.push(request);
      return { content: "ok" };
    },
    apiKey: "sk-test",
    models: ["scripted-1"],
  });
  const config = resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: server.url, model: "scripted-1" } },
      agent: { terminal: { sandbox: false } },
      persistence: { data_dir: path.join(home, "data"), enabled: false },
    },
    { homeDir: home, env: {} },
  );
  const warnings: string[] = [];
  const runtime = await createAgentRuntime(
    config,
    { warn: (message) => warnings.push(message) },
    {
      workspace,
      modes: { chatMode: "write", approvalPolicy: "never" },
      env: { OPENAI_API_KEY: "sk-test" },
      skills: { homeDir: home },
    },
  );
  try {
    await runtime.run(prompt);
    const user = seen[0]?.messages.findLast((m) => m.role === "user")?.content ?? "";
    return { user, warnings, commands: runtime.customCommands.map((c) => c.name) };
  } finally {
    await runtime.close();
  }
}

describe("custom commands in a session", () => {
  it("expands /name args into the command's prompt", async () => {
    await writeFile(
      path.join(home, ".xzatoma", "commands", "git", "fix.md"),
      "---\ndescription: Fix an issue\n---\nFix issue $1 with care. Notes: $ARGUMENTS\n",
    );
    const { user, commands } = await run("/git:fix 42 quickly");
    expect(commands).toEqual(["git:fix"]);
    expect(user).toBe("Fix issue 42 with care. Notes: 42 quickly");
  });

  it("does not expand an untrusted project command, and says how to trust it", async () => {
    await writeFile(path.join(workspace, ".xzatoma", "commands", "ship.md"), "SHIP-MARKER $1\n");
    const { user, warnings } = await run("/ship now");
    expect(user).toBe("/ship now");
    expect(user).not.toContain("SHIP-MARKER");
    expect(warnings.join("\n")).toContain("no person has trusted this content");
  });
});
