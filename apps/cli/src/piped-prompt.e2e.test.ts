// `git log -1 | xzatoma run`: the piped text was written by someone else (a commit's author,
// a file's), so an @mention in it is not expanded: the model gets the text as it is, and the
// file it names is not read into the prompt. The same mention typed as the prompt is.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCENARIOS,
  startScriptedOllama,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { runCli, type Outcome } from "./cli.test-support.js";

const CONTENT = "the-contents-of-notes-txt";

let base: string;
let workspace: string;
let ollama: ScriptedOllama;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-piped-prompt-")));
  workspace = path.join(base, "project");
  await mkdir(path.join(base, "home"), { recursive: true });
  await mkdir(workspace);
  await writeFile(path.join(workspace, "notes.txt"), `${CONTENT}\n`);
  ollama = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
});

afterAll(async () => {
  await ollama.close();
  await rm(base, { recursive: true, force: true });
});

function run(args: readonly string[], input?: string): Promise<Outcome> {
  return runCli(["run", "--host", ollama.url, ...args], {
    cwd: workspace,
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: path.join(base, "home"),
      XZATOMA_HOME: path.join(base, "data"),
    },
    ...(input === undefined ? {} : { input }),
  });
}

/** What the model was sent as the user's message in the last request. */
function lastUserMessage(): string {
  const request = ollama.requests.at(-1);
  return request?.messages.findLast((message) => message.role === "user")?.content ?? "";
}

describe("a prompt read from standard input", () => {
  it("is sent as written: its @mentions are not expanded, and the user is told", async () => {
    const outcome = await run([], "Fix the typo reported in @notes.txt\n");
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(lastUserMessage()).toContain("@notes.txt");
    expect(lastUserMessage()).not.toContain(CONTENT);
    expect(outcome.stderr).toContain("@mentions in standard input are not expanded");
  });

  it("is the same with - for standard input", async () => {
    const outcome = await run(["-"], "Summarise @notes.txt\n");
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(lastUserMessage()).not.toContain(CONTENT);
  });
});

describe("a prompt the person typed", () => {
  it("has its @mentions expanded", async () => {
    const outcome = await run(["--prompt", "Summarise @notes.txt"]);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(lastUserMessage()).toContain(CONTENT);
    expect(outcome.stderr).not.toContain("not expanded");
  });
});
