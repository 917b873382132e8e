// The project's .xzatoma/config.yaml through the built `xzatoma`: `config show` names it as
// the source of its values; untrusted, only its model applies and the rest is named in a
// warning; after `config trust` its other settings apply too.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli.test-support.js";

let base: string;
let workspace: string;
let projectFile: string;

const env = () => ({
  PATH: process.env["PATH"] ?? "",
  HOME: base,
  XZATOMA_PERSISTENCE_DATA_DIR: path.join(base, "data"),
});

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-project-config-cli-")));
  workspace = path.join(base, "project");
  await mkdir(path.join(workspace, ".git"), { recursive: true });
  await mkdir(path.join(workspace, ".xzatoma"), { recursive: true });
  projectFile = path.join(workspace, ".xzatoma", "config.yaml");
  await writeFile(
    projectFile,
    "provider:\n  ollama:\n    model: project-model\nagent:\n  max_turns: 77\n",
  );
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("project configuration in the CLI", () => {
  it("config show names the project file; untrusted, only its model applies", async () => {
    const shown = await runCli(["config", "show", "--json"], { cwd: workspace, env: env() });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("project-model");
    expect(shown.stdout).toContain(projectFile);
    expect(shown.stdout).not.toContain("77");
    expect(shown.stderr).toContain("agent.max_turns");
    expect(shown.stderr).toContain("no person has trusted this content");
  });

  it("after config trust, its other settings apply", async () => {
    const trusted = await runCli(["config", "trust"], { cwd: workspace, env: env() });
    expect(trusted.code, trusted.stderr).toBe(0);
    const shown = await runCli(["config", "show"], { cwd: workspace, env: env() });
    expect(shown.stdout).toMatch(/max_turns: 77/);
    expect(shown.stderr).not.toContain("no person has trusted");
  });
});
