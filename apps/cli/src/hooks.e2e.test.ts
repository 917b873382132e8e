// Hooks through the built `xzatoma run`: a PreToolUse hook's exit 2 reaches the model, a
// UserPromptSubmit refusal ends the run before the model is asked, and a project's hooks run
// only after `xzatoma config trust`. Real hook scripts, a scripted Ollama as the model.
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedOllama,
  type ScriptedTurn,
} from "@xzatoma/scripted-servers/ollama";
import { runCli } from "./cli.test-support.js";

let base: string;
let workspace: string;
let scripts: string;
let model: ScriptedOllama;
let script: (request: OllamaChatRequest) => ScriptedTurn = () => ({ content: "ok" });

const configFile = () => path.join(base, "config.yaml");
const env = () => ({
  PATH: process.env["PATH"] ?? "",
  HOME: base,
  XZATOMA_CONFIG: configFile(),
  XZATOMA_PERSISTENCE_DATA_DIR: path.join(base, "data"),
});

async function hookScript(name: string, body: string): Promise<string> {
  const file = path.join(scripts, name);
  await writeFile(file, body);
  await chmod(file, 0o755);
  return file;
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-hooks-cli-")));
  workspace = path.join(base, "project");
  scripts = path.join(base, "scripts");
  await mkdir(path.join(workspace, ".git"), { recursive: true });
  await mkdir(scripts, { recursive: true });
  await writeFile(path.join(workspace, "notes.txt"), "NOTES\n");
  model = await startScriptedOllama({ scenario: (request) => script(request) });
});

afterEach(async () => {
  await rm(path.join(workspace, ".xzatoma"), { recursive: true, force: true });
  await writeFile(configFile(), "");
});

afterAll(async () => {
  await model.close();
  await rm(base, { recursive: true, force: true });
});

/** The model reads notes.txt, then answers with the tool result it read. */
const readThenEcho = (request: OllamaChatRequest): ScriptedTurn => {
  const last = request.messages.at(-1);
  return last?.role === "tool"
    ? { content: `tool said: ${last.content}` }
    : { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] };
};

describe("hooks in xzatoma run", () => {
  it("a PreToolUse hook's exit 2 refuses the call and its reason reaches the model", async () => {
    const deny = await hookScript(
      "deny.sh",
      "#!/bin/sh\ncat > /dev/null\necho 'notes are sealed' >&2\nexit 2\n",
    );
    await writeFile(
      configFile(),
      `hooks:\n  PreToolUse:\n    - matcher: read_file\n      hooks:\n        - command: ${JSON.stringify(deny)}\n`,
    );
    script = readThenEcho;
    const outcome = await runCli(["run", "--host", model.url, "read the notes"], {
      cwd: workspace,
      env: env(),
    });
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toContain("a PreToolUse hook refused it: notes are sealed");
    expect(outcome.stdout).not.toContain("NOTES");
  });

  it("a UserPromptSubmit refusal ends the run before the model is asked", async () => {
    const refuse = await hookScript(
      "refuse.sh",
      "#!/bin/sh\ncat > /dev/null\necho 'prompts mentioning prod are not allowed' >&2\nexit 2\n",
    );
    await writeFile(
      configFile(),
      `hooks:\n  UserPromptSubmit:\n    - hooks:\n        - command: ${JSON.stringify(refuse)}\n`,
    );
    const before = model.requests.length;
    const outcome = await runCli(["run", "--host", model.url, "deploy to prod"], {
      cwd: workspace,
      env: env(),
    });
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toContain(
      "A UserPromptSubmit hook refused the prompt: prompts mentioning prod are not allowed",
    );
    expect(model.requests.length).toBe(before);
  });

  it("a project's hook runs only after config trust", async () => {
    const marker = path.join(base, "project-hook-ran");
    await mkdir(path.join(workspace, ".xzatoma"), { recursive: true });
    await writeFile(
      path.join(workspace, ".xzatoma", "config.yaml"),
      `hooks:\n  PreToolUse:\n    - hooks:\n        - command: touch ${JSON.stringify(marker)}\n`,
    );
    script = readThenEcho;
    const untrusted = await runCli(["run", "--host", model.url, "read the notes"], {
      cwd: workspace,
      env: env(),
    });
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(untrusted.stderr).toContain("hooks.PreToolUse");
    expect(existsSync(marker)).toBe(false);

    const trust = await runCli(["config", "trust"], { cwd: workspace, env: env() });
    expect(trust.code, trust.stderr).toBe(0);
    const trusted = await runCli(["run", "--host", model.url, "read the notes"], {
      cwd: workspace,
      env: env(),
    });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain("NOTES");
    expect(existsSync(marker)).toBe(true);
  });
});
