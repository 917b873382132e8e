// Custom commands through the built `xzatoma`: `run "/name args"` sends the command's
// prompt with the arguments put in; a project command runs only after `commands trust`.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedOllama, type ScriptedOllama } from "@xzatoma/scripted-servers/ollama";
import { runCli } from "./cli.test-support.js";

let base: string;
let workspace: string;
let model: ScriptedOllama;

const env = () => ({
  PATH: process.env["PATH"] ?? "",
  HOME: base,
  XZATOMA_PERSISTENCE_DATA_DIR: path.join(base, "data"),
});

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-commands-cli-")));
  workspace = path.join(base, "project");
  await mkdir(path.join(workspace, ".git"), { recursive: true });
  await mkdir(path.join(base, ".xzatoma", "commands", "git"), { recursive: true });
  await writeFile(
    path.join(base, ".xzatoma", "commands", "git", "fix.md"),
    "---\ndescription: Fix an issue\n---\nFix issue $1, then say $ARGUMENTS.\n",
  );
  await mkdir(path.join(workspace, ".xzatoma", "commands"), { recursive: true });
  await writeFile(path.join(workspace, ".xzatoma", "commands", "ship.md"), "Ship $1 today.\n");
  model = await startScriptedOllama({ scenario: () => ({ content: "ok" }) });
});

afterAll(async () => {
  await model.close();
  await rm(base, { recursive: true, force: true });
});

async function promptSent(prompt: string) {
  const before = model.requests.length;
  const outcome = await runCli(["run", "--host", model.url, prompt], {
    cwd: workspace,
    env: env(),
  });
  expect(outcome.code, outcome.stderr).toBe(0);
  const messages = model.requests[before]?.messages ?? [];
  return { user: messages.findLast((m) => m.role === "user")?.content, stderr: outcome.stderr };
}

describe("custom commands in the CLI", () => {
  it("run '/name args' sends the command's prompt with the arguments", async () => {
    expect((await promptSent("/git:fix 42 done")).user).toBe("Fix issue 42, then say 42 done.");
  });

  it("a project command runs only after a person trusted it", async () => {
    const untrusted = await promptSent("/ship v2");
    expect(untrusted.user).toBe("/ship v2");
    expect(untrusted.stderr).toContain("no person has trusted this content");

    const listed = await runCli(["commands", "list", "--json"], { cwd: workspace, env: env() });
    expect(JSON.parse(listed.stdout).commands).toMatchObject([
      { name: "git:fix", scope: "user", offered: true },
      { name: "ship", scope: "project", offered: false },
    ]);
    const trusted = await runCli(["commands", "trust", "/ship"], { cwd: workspace, env: env() });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect((await promptSent("/ship v2")).user).toBe("Ship v2 today.");
  });
});
