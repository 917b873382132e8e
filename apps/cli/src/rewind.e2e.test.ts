// Rewind end to end: the built `xzatoma run` against a scripted model that, one call per
// turn, overwrites a file with write_file, edits another with edit_file, and runs a command
// in the sandbox that creates a file and deletes one. `xzatoma rewind` then puts all four
// back to their exact bytes and modes; a file the person changed since stops it; --dry-run
// changes nothing; the conversation continues as a fork and the original stays.
import { spawnSync } from "node:child_process";
import { chmod, lstat, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedOllama, type ScriptedOllama } from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type Outcome } from "./cli.test-support.js";

/** Generous: a sandboxed command on a loaded machine. */
const RUN_TIMEOUT_MS = 240_000;

const CALLS = [
  { name: "write_file", arguments: { path: "config.json", content: '{ "level": 2 }\n' } },
  {
    name: "edit_file",
    arguments: { path: "src/app.js", mode: "edit", old_text: "hello", content: "goodbye" },
  },
  { name: "terminal", arguments: { command: "echo built > made.txt && rm old.log" } },
];

/** What the workspace holds before the run: path, bytes, mode. */
const BEFORE = [
  { path: "config.json", bytes: '{ "level": 1 }\n', mode: 0o640 },
  { path: "src/app.js", bytes: 'console.log("hello");\n', mode: 0o604 },
  { path: "old.log", bytes: "old log line\n", mode: 0o600 },
] as const;

let base: string;
let home: string;
let workspace: string;
let model: ScriptedOllama;
let runOutcome: Outcome;
let conversationId: string;

const env = () => ({
  PATH: process.env["PATH"] ?? "",
  HOME: home,
  XZATOMA_HOME: path.join(home, ".xzatoma"),
});
const cli = (args: readonly string[]) => runCli(args, { cwd: workspace, env: env() });

/** Every file of the workspace (outside .git) with its bytes and mode. */
async function snapshot(): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const name of ["config.json", "src/app.js", "old.log", "made.txt"]) {
    const file = path.join(workspace, name);
    try {
      const stats = await lstat(file);
      result[name] = `${(stats.mode & 0o777).toString(8)} ${await readFile(file, "utf8")}`;
    } catch {
      result[name] = "absent";
    }
  }
  return result;
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-rewind-")));
  home = path.join(base, "home");
  workspace = path.join(base, "project");
  await mkdir(home, { recursive: true });
  await mkdir(path.join(workspace, "src"), { recursive: true });
  for (const file of BEFORE) {
    await writeFile(path.join(workspace, file.path), file.bytes);
    await chmod(path.join(workspace, file.path), file.mode);
  }
  spawnSync("git", ["init", "-q", workspace]);
  model = await startScriptedOllama({
    scenario: (request) => {
      const step = request.messages.filter((message) => message.role === "tool").length;
      const call = CALLS[step];
      return call ? { toolCalls: [call] } : { content: "done" };
    },
  });
  runOutcome = await cli([
    "run",
    "--mode",
    "write",
    "--prompt",
    "Bump the level, say goodbye, build.",
    "--host",
    model.url,
  ]);
  if (runOutcome.code !== 0)
    throw new Error(`the run failed (${String(runOutcome.code)}): ${runOutcome.stderr}`);
  const listed = await cli(["history", "list", "--json"]);
  const parsed = JSON.parse(listed.stdout) as { items?: { id: string }[] } | { id: string }[];
  const items = Array.isArray(parsed) ? parsed : (parsed.items ?? []);
  conversationId = items[0]?.id ?? "";
}, RUN_TIMEOUT_MS);

afterAll(async () => {
  await model?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

describe("xzatoma rewind", () => {
  const after = {
    "config.json": '640 { "level": 2 }\n',
    "src/app.js": '604 console.log("goodbye");\n',
    "old.log": "absent",
    "made.txt": "644 built\n",
  };

  it("the run changed all four files", async () => {
    expect(runOutcome.code, runOutcome.stderr).toBe(0);
    expect(conversationId).not.toBe("");
    const now = await snapshot();
    expect(now["config.json"]).toBe(after["config.json"]);
    expect(now["src/app.js"]).toBe(after["src/app.js"]);
    expect(now["old.log"]).toBe("absent");
    expect(now["made.txt"]).toMatch(/ built\n$/);
    const results = (model.requests.at(-1)?.messages ?? []).filter((m) => m.role === "tool");
    // Not provably read-only: without a working sandbox it would have been refused unattended.
    expect(results.at(-1)?.content).toMatch(/^exit code 0\n/);
  });

  it("lists the turns with the files each changed", async () => {
    const listed = await cli(["rewind", conversationId, "--list"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/turn 1 .*config\.json/);
    expect(listed.stdout).toMatch(/turn 2 .*src\/app\.js/);
    expect(listed.stdout).toMatch(/turn 3 .*made\.txt/);
    expect(listed.stdout).toMatch(/turn 3 .*old\.log/);
  });

  it("--dry-run says what it would put back and changes nothing", async () => {
    const before = await snapshot();
    const dry = await cli(["rewind", conversationId, "--to", "1", "--dry-run", "--json"]);
    expect(dry.code, dry.stderr).toBe(0);
    const report = JSON.parse(dry.stdout) as { changes: { path: string }[]; forkId?: string };
    expect(report.changes.map((change) => change.path).sort()).toEqual([
      "config.json",
      "made.txt",
      "old.log",
      "src/app.js",
    ]);
    expect(report.forkId).toBeUndefined();
    expect(await snapshot()).toEqual(before);
  });

  it("stops, names the file and changes nothing when the person changed a file since", async () => {
    const file = path.join(workspace, "src/app.js");
    await writeFile(file, 'console.log("mine");\n');
    const before = await snapshot();
    const stopped = await cli(["rewind", conversationId, "--to", "1"]);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain("Rewind stopped");
    expect(stopped.stderr).toContain("src/app.js");
    expect(await snapshot()).toEqual(before);
    // The person puts back what the agent left; the rewind may go ahead.
    await writeFile(file, 'console.log("goodbye");\n');
  });

  it("puts all four back to their exact bytes and modes and forks the conversation", async () => {
    const rewound = await cli(["rewind", conversationId, "--to", "1", "--json"]);
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(await snapshot()).toEqual({
      "config.json": '640 { "level": 1 }\n',
      "src/app.js": '604 console.log("hello");\n',
      "old.log": "600 old log line\n",
      "made.txt": "absent",
    });
    const report = JSON.parse(rewound.stdout) as { forkId: string; messagesKept: number };
    expect(report.forkId).toMatch(/^[0-9A-Z]{26}$/);
    // Before turn 1 nothing of the run is kept, its prompt included; the original stays whole.
    expect(report.messagesKept).toBe(0);
    const original = await cli(["history", "show", conversationId, "--json"]);
    expect(original.code).toBe(0);
    expect(original.stdout).toContain("Bump the level");
    const fork = await cli(["history", "show", report.forkId, "--json"]);
    expect(fork.code, fork.stderr).toBe(0);
    expect(fork.stdout).toContain("rewound before turn 1");
  });
});
