import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Command } from "commander";
import { FLAG_MAPPINGS } from "../config/flag-mapping.js";
import { createProgram } from "../program.js";

let dir: string;
let configFile: string;
let savedHome: string | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "xzatoma-config-command-"));
  configFile = path.join(dir, "config.yaml");
  savedHome = process.env["HOME"];
  process.env["HOME"] = dir;
});

afterEach(async () => {
  if (savedHome === undefined) delete process.env["HOME"];
  else process.env["HOME"] = savedHome;
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

/** Runs `xzatoma ...args` in this process; returns the exit code and what it printed. */
async function xzatoma(...args: string[]) {
  let stdout = "";
  let stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  let code = -1;
  await createProgram((exit) => (code = exit)).parseAsync(args, { from: "user" });
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

describe("xzatoma config show", () => {
  it("shows the value a flag gives, with the flag as its source", async () => {
    await writeFile(configFile, "agent:\n  max_turns: 10\n");
    const shown = await xzatoma(
      "config",
      "show",
      "--config",
      configFile,
      "--max-turns",
      "5",
      "--no-sandbox",
      "--provider",
      "openai",
      "-m",
      "gpt-x",
    );
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("  max_turns: 5 # from flag:--max-turns\n");
    expect(shown.stdout).toContain("    sandbox: false # from flag:--no-sandbox\n");
    expect(shown.stdout).toContain("  type: openai # from flag:--provider\n");
    expect(shown.stdout).toContain("    model: gpt-x # from flag:--model\n");
    expect(shown.stdout).toContain("  timeout_seconds: 300 # from default\n");

    const plain = await xzatoma("config", "show", "--config", configFile);
    expect(plain.stdout).toContain("  max_turns: 10 # from file\n");
    expect(plain.stdout).toContain("    sandbox: true # from default\n");
  });

  it("shows the watcher section like any other, and prints each warning on stderr", async () => {
    await writeFile(configFile, "watcher:\n  watcher_type: generic\n");
    process.env["XZATOMA_MAX_TURNS"] = "5";
    try {
      const shown = await xzatoma("config", "show", "--config", configFile);
      expect(shown.code).toBe(0);
      expect(shown.stderr).toBe(
        "warning: environment variable XZATOMA_MAX_TURNS: sets no configuration key; did you mean XZATOMA_AGENT_MAX_TURNS?\n",
      );
      expect(shown.stdout).toContain("watcher:\n  watcher_type: generic # from file\n");
    } finally {
      delete process.env["XZATOMA_MAX_TURNS"];
    }
  });
});

describe("configuration flags", () => {
  it("are each an option of run, chat and config show (or a global one)", () => {
    const program = createProgram(() => undefined);
    const find = (...names: string[]) =>
      names.reduce<Command>(
        (command, name) => command.commands.find((child) => child.name() === name) as Command,
        program,
      );
    const global = program.options.map((option) => option.long);
    for (const command of [find("run"), find("chat"), find("config", "show")]) {
      const longs = [...global, ...command.options.map((option) => option.long)];
      for (const mapping of FLAG_MAPPINGS) {
        // Nobody is asked in run: it has no approval policy to choose.
        if (command.name() === "run" && mapping.flag === "--approval") continue;
        expect(longs, command.name()).toContain(mapping.flag);
      }
    }
  });
});

describe("xzatoma config validate", () => {
  it("says a file is valid, the watcher and xzepr sections included", async () => {
    await writeFile(
      configFile,
      "agent:\n  quota:\n    max_executions: 5\nwatcher:\n  watcher_type: generic\nxzepr:\n  api_url: https://xzepr.example.com\n",
    );
    const result = await xzatoma("config", "validate", configFile);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${configFile}: valid\n`);
    const json = await xzatoma("config", "validate", configFile, "--json");
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: true, warnings: [] });
  });

  it("exits 1 with every problem", async () => {
    await writeFile(configFile, "agent:\n  subagent:\n    max_depth: 0\n");
    const result = await xzatoma("config", "validate", configFile);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `${configFile}:3:16: agent.subagent.max_depth: expected an integer from 1 to 10, got 0`,
    );
  });
});
