// A model server's names are text from outside: `xzatoma models list` prints them through
// the one escaper, so a name holding a window-title sequence or a clear-screen reaches the
// terminal as visible escapes, never as the bytes a terminal acts on.
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCENARIOS,
  startScriptedOllama,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { runCli } from "./cli.test-support.js";

const TITLE = "\x1b]0;pwned\x07";
const CLEAR = "\x1b[2J";

let base: string;
let ollama: ScriptedOllama;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-models-escaping-")));
  await mkdir(path.join(base, "home"));
  ollama = await startScriptedOllama({
    scenario: SCENARIOS["echo"]!,
    models: [`llama${TITLE}:latest`, `qwen${CLEAR}\u202e:1b`],
  });
});

afterAll(async () => {
  await ollama.close();
  await rm(base, { recursive: true, force: true });
});

function modelsList(extra: readonly string[] = []) {
  return runCli(["models", "list", "--host", ollama.url, ...extra], {
    cwd: base,
    env: { PATH: process.env["PATH"] ?? "", HOME: path.join(base, "home") },
  });
}

describe("xzatoma models list with names a server made up", () => {
  it("prints the names escaped", async () => {
    const outcome = await modelsList();
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).not.toContain("\x1b");
    expect(outcome.stdout).not.toContain("\x07");
    expect(outcome.stdout).not.toContain("\u202e");
    expect(outcome.stdout).toContain("llama\\x1b]0;pwned\\x07:latest (3.2B)");
    expect(outcome.stdout).toContain("qwen\\x1b[2J\\u202e:1b (3.2B)");
  });

  it("prints them escaped in --json too, as JSON that parses to the same names", async () => {
    const outcome = await modelsList(["--json"]);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).not.toContain("\x1b");
    expect(outcome.stdout).not.toContain("\u202e");
    const parsed = JSON.parse(outcome.stdout) as { models: { id: string }[] };
    expect(parsed.models.map((model) => model.id)).toEqual([
      `llama${TITLE}:latest`,
      `qwen${CLEAR}\u202e:1b`,
    ]);
  });
});
