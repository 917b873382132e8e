// Agent Skills through the built `xzatoma`: `skills list` shows what a session finds, an
// untrusted project skill is not offered to `run`, `skills trust` makes it offered, and a
// change to its file makes it untrusted again. A scripted model records what it was sent.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedOllama, type ScriptedOllama } from "@xzatoma/scripted-servers/ollama";
import { runCli } from "./cli.test-support.js";

let base: string;
let workspace: string;
let model: ScriptedOllama;
let projectSkill: string;

const env = () => ({
  PATH: process.env["PATH"] ?? "",
  HOME: base,
  XZATOMA_PERSISTENCE_DATA_DIR: path.join(base, "data"),
});

async function skill(root: string, name: string, body: string): Promise<string> {
  await mkdir(path.join(root, name), { recursive: true });
  const file = path.join(root, name, "SKILL.md");
  await writeFile(file, `---\nname: ${name}\ndescription: How to ${name}.\n---\n${body}\n`);
  return file;
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-skills-cli-")));
  workspace = path.join(base, "project");
  await mkdir(path.join(workspace, ".git"), { recursive: true });
  await skill(path.join(base, ".xzatoma", "skills"), "release", "USER-BODY");
  projectSkill = await skill(path.join(workspace, ".claude", "skills"), "deploy", "PROJECT-BODY");
  model = await startScriptedOllama({ scenario: () => ({ content: "ok" }) });
});

afterAll(async () => {
  await model.close();
  await rm(base, { recursive: true, force: true });
});

/** The system prompt and tool names of the last request `run` sent. */
async function runOnce(): Promise<{ system: string; tools: string[]; stderr: string }> {
  const before = model.requests.length;
  const outcome = await runCli(["run", "--host", model.url, "hello"], {
    cwd: workspace,
    env: env(),
  });
  expect(outcome.code, outcome.stderr).toBe(0);
  const request = model.requests[before];
  return {
    system: request?.messages.find((m) => m.role === "system")?.content ?? "",
    tools: (request?.tools ?? []).map((tool) => tool.function.name),
    stderr: outcome.stderr,
  };
}

describe("skills in the CLI", () => {
  it("lists the user's skill as offered and the project's as not trusted", async () => {
    const outcome = await runCli(["skills", "list", "--json"], { cwd: workspace, env: env() });
    expect(outcome.code, outcome.stderr).toBe(0);
    const listed = JSON.parse(outcome.stdout) as {
      skills: { name: string; scope: string; offered: boolean }[];
    };
    expect(listed.skills.map(({ name, scope, offered }) => ({ name, scope, offered }))).toEqual([
      { name: "deploy", scope: "project", offered: false },
      { name: "release", scope: "user", offered: true },
    ]);
  });

  it("offers a project skill to run only after a person trusted it, until it changes", async () => {
    const untrusted = await runOnce();
    expect(untrusted.system).toContain("- release: How to release.");
    expect(untrusted.system).not.toContain("deploy");
    expect(untrusted.stderr).toContain("no person has trusted this content");

    const trusted = await runCli(["skills", "trust", "deploy"], { cwd: workspace, env: env() });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain("Trusted the project skill 'deploy'");
    const offered = await runOnce();
    expect(offered.system).toContain("- deploy: How to deploy.");
    expect(offered.tools).toContain("skill");

    await writeFile(projectSkill, "---\nname: deploy\ndescription: How to deploy.\n---\nV2\n");
    const changed = await runOnce();
    expect(changed.system).not.toContain("deploy");
  });
});
