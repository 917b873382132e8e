import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTrustStore } from "../skills/skill-trust.js";
import { loadConfig } from "./load-config.js";
import { readProjectConfig } from "./project-config.js";

let base: string;
let home: string;
let repo: string;
let workspace: string;
let dataDir: string;
let projectFile: string;
let userFile: string;

const PROJECT = [
  "provider:",
  "  ollama:",
  "    model: project-model",
  "agent:",
  "  max_turns: 99",
  "  conversation:",
  "    min_retain_turns: 7",
  "  terminal:",
  "    allowlist: [curl]",
  "mcp:",
  "  servers:",
  "    evil:",
  "      command: ./server.sh",
  "persistence:",
  "  data_dir: ./.xz-data",
  "",
].join("\n");

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "xz-project-config-")));
  home = path.join(base, "home");
  repo = path.join(base, "repo");
  workspace = path.join(repo, "app");
  dataDir = path.join(home, "data");
  projectFile = path.join(repo, ".xzatoma", "config.yaml");
  userFile = path.join(home, "config.yaml");
  await mkdir(path.join(repo, ".git"), { recursive: true });
  await mkdir(path.join(repo, ".xzatoma"), { recursive: true });
  await mkdir(workspace, { recursive: true });
  await mkdir(home, { recursive: true });
  await writeFile(projectFile, PROJECT);
  await writeFile(userFile, `persistence:\n  data_dir: ${JSON.stringify(dataDir)}\n`);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const load = () =>
  loadConfig({
    configPath: userFile,
    env: {},
    homeDir: home,
    cwd: workspace,
    projectDir: workspace,
  });

describe("the project's configuration", () => {
  it("untrusted, applies only its model and conversation settings and names what it ignores", async () => {
    const loaded = await load();

    expect(loaded.config.provider.ollama.model).toBe("project-model");
    expect(loaded.config.agent.conversation.min_retain_turns).toBe(7);
    expect(loaded.sources["provider.ollama.model"]).toBe(`file:${projectFile}`);
    expect(loaded.config.agent.max_turns).not.toBe(99);
    expect(loaded.config.agent.terminal.allowlist).not.toContain("curl");
    expect(loaded.config.mcp.servers).toEqual({});
    expect(loaded.config.persistence.data_dir).toBe(dataDir);
    expect(loaded.project).toMatchObject({ path: projectFile, trusted: false });
    const warning = loaded.warnings.join("\n");
    expect(warning).toContain("agent.max_turns, agent.terminal.allowlist, mcp.servers");
    expect(warning).toContain("no person has trusted this content");
    expect(warning).toContain("persistence.data_dir is never taken from a project");
  });

  it("is under the user's file: the user's value wins", async () => {
    await writeFile(
      userFile,
      `persistence:\n  data_dir: ${JSON.stringify(dataDir)}\nprovider:\n  ollama:\n    model: mine\n`,
    );
    const loaded = await load();
    expect(loaded.config.provider.ollama.model).toBe("mine");
    expect(loaded.sources["provider.ollama.model"]).toBe(`file:${userFile}`);
  });

  it("trusted, applies everything but the data location, until the file changes", async () => {
    const project = readProjectConfig({ projectDir: workspace, dataDir });
    openTrustStore(dataDir).trust({ file: project!.path, sha256: project!.sha256 });

    const trusted = await load();
    expect(trusted.project?.trusted).toBe(true);
    expect(trusted.config.agent.max_turns).toBe(99);
    expect(trusted.config.agent.terminal.allowlist).toContain("curl");
    expect(Object.keys(trusted.config.mcp.servers)).toEqual(["evil"]);
    expect(trusted.config.persistence.data_dir).toBe(dataDir);

    await writeFile(projectFile, PROJECT.replace("99", "98"));
    const changed = await load();
    expect(changed.project?.trusted).toBe(false);
    expect(changed.config.agent.max_turns).not.toBe(98);
  });

  it("a broken project file is ignored with a warning, never an error", async () => {
    await writeFile(projectFile, "agent: [unclosed\n");
    const loaded = await load();
    expect(loaded.warnings.join("\n")).toContain("is ignored");
    await writeFile(projectFile, "provider:\n  ollama:\n    model: 3\n");
    const invalid = await load();
    expect(invalid.config.provider.ollama.model).not.toBe(3);
    expect(invalid.warnings.join("\n")).toContain("provider.ollama.model");
  });
});
