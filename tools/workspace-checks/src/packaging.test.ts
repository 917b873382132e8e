// The published shape, proven: pack the packages, install the tarballs into an empty
// project with npm, run `xzatoma --help` there, and run a ten-line embedding program
// against the scripted Ollama server.
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  SCENARIOS,
  startScriptedOllama,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_PACKAGES, installTarballs, packPackages } from "./pack-and-install.js";

const EMBED_PROGRAM = `import { Agent } from "@xzatoma/core";
import { createOllamaModel } from "@xzatoma/providers";
import { createBuiltinTools, createWorkspaceContext } from "@xzatoma/tools";

const workspace = createWorkspaceContext({ root: process.argv[2] ?? process.cwd() });
const agent = new Agent({ model: createOllamaModel({ model: "llama3.2:3b" }), tools: createBuiltinTools(workspace) });
const result = await agent.run("What does README.md say?");
console.log(result.text);
process.exitCode = result.stopReason === "completed" ? 0 : 1;
`;

let base: string;
let project: string;
let tarballs: string[];
let server: ScriptedOllama;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "xz-packaging-"));
  project = path.join(base, "project");
  tarballs = packPackages(CLI_PACKAGES, path.join(base, "tarballs"));
  installTarballs(tarballs, project);
  server = await startScriptedOllama({ scenario: SCENARIOS["two-tools"]! });
});

afterAll(async () => {
  await server?.close();
  await rm(base, { recursive: true, force: true });
});

describe("the packed packages", () => {
  it("each carry the workspace's license", () => {
    expect(tarballs).toHaveLength(CLI_PACKAGES.length);
    for (const tarball of tarballs) {
      // pnpm packs the workspace's LICENSE into a package that has none of its own.
      const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n");
      expect(files, tarball).toContain("package/LICENSE");
    }
  });

  it("each say where they live, where bugs go and that they publish publicly", () => {
    for (const tarball of tarballs) {
      const manifest = JSON.parse(
        execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
      ) as {
        homepage?: string;
        bugs?: { url?: string };
        publishConfig?: { access?: string; provenance?: boolean };
      };
      expect(manifest.homepage, tarball).toMatch(/^https:\/\//);
      expect(manifest.bugs?.url, tarball).toMatch(/^https:\/\/.*\/issues$/);
      expect(manifest.publishConfig, tarball).toEqual({ access: "public", provenance: true });
    }
  });
});

describe("the packed packages installed with npm", () => {
  it("run `xzatoma --help` and `xzatoma --version`", () => {
    const bin = path.join(project, "node_modules", ".bin", "xzatoma");
    const help = spawnSync(process.execPath, [bin, "--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: xzatoma");
    expect(help.stdout).toContain("run [options]");
    expect(execFileSync(process.execPath, [bin, "--version"], { encoding: "utf8" })).toMatch(
      /^xzatoma \d+\.\d+\.\d+\n$/,
    );
  });

  it("let a ten-line program embed the agent with a provider and the built-in tools", async () => {
    const workspace = path.join(base, "workspace");
    await mkdir(workspace);
    await writeFile(path.join(workspace, "README.md"), "Embedded XZatoma works.\n");
    await writeFile(path.join(project, "embed.mjs"), EMBED_PROGRAM);
    // Asynchronous on purpose: the scripted server answers from this process.
    const run = await promisify(execFile)(process.execPath, ["embed.mjs", workspace], {
      cwd: project,
      encoding: "utf8",
      env: { ...process.env, OLLAMA_HOST: server.url },
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      "README.md begins with: Embedded XZatoma works. (after 2 tool calls)\n",
    );
  });
});
