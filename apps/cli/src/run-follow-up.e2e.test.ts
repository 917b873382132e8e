// One-shot follow-ups: `run --continue` goes on with the newest saved conversation and
// `run --resume ID` with a chosen one; the model sees what was said before.
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  SCENARIOS,
  startScriptedOllama,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "./cli.test-support.js";

let base: string;
let workspace: string;
let home: string;
let server: ScriptedOllama;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-run-follow-up-")));
  workspace = path.join(base, "project");
  home = path.join(base, "home");
  await mkdir(workspace, { recursive: true });
  await mkdir(home, { recursive: true });
  server = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
});

afterAll(async () => {
  await server.close();
  await rm(base, { recursive: true, force: true });
});

const run = (...args: string[]) =>
  runCli(["run", ...args], {
    cwd: workspace,
    env: { HOME: home, PATH: process.env["PATH"] ?? "", OLLAMA_HOST: server.url },
  });

/** The user messages of the last request the model received. */
const userMessages = () =>
  (server.requests.at(-1)?.messages ?? [])
    .filter((message) => message.role === "user")
    .map((message) => message.content);

const conversationOf = (stderr: string) =>
  /^conversation ([0-9A-Z]{26}) /m.exec(stderr)?.[1] ?? "no conversation";

it("continues the newest conversation with --continue, and a chosen one with --resume", async () => {
  const first = await run("The word is kiwi.");
  expect(first.code).toBe(0);
  const kiwi = conversationOf(first.stderr);
  const other = await run("The word is plum.");
  const plum = conversationOf(other.stderr);

  const continued = await run("--continue", "Which word?");
  expect(continued.code).toBe(0);
  expect(userMessages()).toEqual(["The word is plum.", "Which word?"]);
  expect(conversationOf(continued.stderr)).toBe(plum);

  const resumed = await run("--resume", kiwi, "Which word?");
  expect(resumed.code).toBe(0);
  expect(userMessages()).toEqual(["The word is kiwi.", "Which word?"]);
  expect(conversationOf(resumed.stderr)).toBe(kiwi);
});

it("refuses --continue with --resume, and a conversation that does not exist", async () => {
  const both = await run("--continue", "--resume", "01AB", "x");
  expect(both.code).toBe(2);
  expect(both.stderr).toContain("give --continue or --resume ID, not both.");
  const missing = await run("--resume", "01ZZZZZZZZZZZZZZZZZZZZZZZZ", "x");
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain("No stored conversation '01ZZZZZZZZZZZZZZZZZZZZZZZZ'.");
});
