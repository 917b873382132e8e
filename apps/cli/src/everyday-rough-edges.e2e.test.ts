// Smaller rough edges of the everyday commands, through the built CLI: what --help says
// --mode is, and that `history delete` removes only the conversation its whole id names.
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedOllama, type ScriptedOllama } from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli.test-support.js";

let base: string;
let workspace: string;
let home: string;
let server: ScriptedOllama;

const env = () => ({ HOME: home, PATH: process.env["PATH"] ?? "" });
const xzatoma = (args: string[]) => runCli(args, { cwd: workspace, env: env() });

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-rough-edges-")));
  workspace = path.join(base, "project");
  home = path.join(base, "home");
  await mkdir(workspace, { recursive: true });
  await mkdir(home, { recursive: true });
  server = await startScriptedOllama({ scenario: () => ({ content: "Hello." }) });
}, 60_000);

afterAll(async () => {
  await server.close();
  await rm(base, { recursive: true, force: true });
});

describe("--help", () => {
  it("describes --mode as the tools offered, not as a chat mode, in run and chat alike", async () => {
    for (const command of ["run", "chat"]) {
      const help = await xzatoma([command, "--help"]);
      expect(help.code).toBe(0);
      const mode = help.stdout.replace(/\s+/g, " ");
      expect(mode).toContain("--mode <mode> the tools offered: planning (only tools that read)");
      expect(mode).not.toContain("chat mode");
    }
  }, 60_000);
});

describe("xzatoma history delete", () => {
  it("deletes nothing for a prefix of an id, and names the conversation it matches", async () => {
    const ran = await xzatoma(["run", "--prompt", "keep me", "--host", server.url]);
    expect(ran.code, ran.stderr).toBe(0);
    const listed = await xzatoma(["history", "list", "--json"]);
    const [entry] = (JSON.parse(listed.stdout) as { items: { id: string }[] }).items;
    const id = entry?.id ?? "";
    const prefix = id.slice(0, 12);

    const refused = await xzatoma(["history", "delete", prefix]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`'${prefix}' is only the start of an id; it matches ${id}`);
    expect(refused.stderr).toContain(`xzatoma history delete ${id}`);
    const still = await xzatoma(["history", "list", "--json"]);
    expect(still.stdout).toContain(id);

    const deleted = await xzatoma(["history", "delete", id]);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe(`Deleted conversation ${id} (keep me).\n`);
    const after = await xzatoma(["history", "list", "--json"]);
    expect(after.stdout).not.toContain(id);
  }, 120_000);
});
