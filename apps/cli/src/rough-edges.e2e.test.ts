// End-to-end tests of rough edges a new user met: an old Node, the `xzatoma` command after
// setup, `history list` filters, the modes of data files, and NO_COLOR. They run the built
// CLI (`nx build cli` first) and `tools/toolchain/env.sh` as a user would.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openHistory } from "@xzatoma/persistence";
import {
  SCENARIOS,
  startScriptedOllama,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../bin/xzatoma.js", import.meta.url));
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const ENV_SH = path.join(ROOT, "tools", "toolchain", "env.sh");
const { version: VERSION } = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
) as { version: string };

interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command` with `args` to completion and collects what it printed. */
function execute(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd = workspace,
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function xzatoma(args: readonly string[], env: Record<string, string> = {}): Promise<Outcome> {
  return execute(process.execPath, [BIN, ...args], {
    PATH: process.env["PATH"] ?? "",
    HOME: home,
    ...env,
  });
}

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** Runs the CLI in a pseudo-terminal (util-linux `script`) and returns what the terminal got. */
async function xzatomaInTerminal(
  args: readonly string[],
  env: Record<string, string>,
): Promise<Outcome> {
  const command = [process.execPath, BIN, ...args].map(quote).join(" ");
  return execute("script", ["--quiet", "--return", "--command", command, "/dev/null"], {
    PATH: process.env["PATH"] ?? "",
    HOME: home,
    TERM: "xterm-256color",
    ...env,
  });
}

const mode = (entry: string) => statSync(entry).mode & 0o777;

let base: string;
let workspace: string;
let home: string;
let twoTools: ScriptedOllama;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-rough-")));
  workspace = path.join(base, "project");
  home = path.join(base, "home");
  await mkdir(home, { recursive: true });
  await mkdir(workspace, { recursive: true });
  await writeFile(path.join(workspace, "README.md"), "# Acme rockets\n\nBuilds rockets.\n");
  twoTools = await startScriptedOllama({ scenario: SCENARIOS["two-tools"]! });
});

afterAll(async () => {
  await twoTools.close();
  await rm(base, { recursive: true, force: true });
});

/** A Node older than 22.19: one on this machine if there is one, else this one told it is 20. */
function olderNode(): {
  readonly command: string;
  readonly args: string[];
  readonly version: string;
} {
  const directories = [...(process.env["PATH"] ?? "").split(":"), "/usr/bin", "/usr/local/bin"];
  for (const directory of directories) {
    const candidate = path.join(directory, "node");
    if (directory === "" || !existsSync(candidate)) continue;
    const version = execFileSync(candidate, ["-p", "process.versions.node"], {
      encoding: "utf8",
    }).trim();
    const [major = 0, minor = 0] = version.split(".").map(Number);
    if (major < 22 || (major === 22 && minor < 19))
      return { command: candidate, args: [], version };
  }
  const fake = "Object.defineProperty(process.versions,'node',{value:'20.19.0'})";
  return {
    command: process.execPath,
    args: ["--import", `data:text/javascript,${fake}`],
    version: "20.19.0",
  };
}

describe("xzatoma on a Node older than 22.19", () => {
  it.each([["history", "list"], ["run", "--prompt", "hi"], ["chat"], ["--version"]])(
    "%s says which Node it needs and found, in one line, exit 1",
    async (...args) => {
      const node = olderNode();
      const user = await mkdtemp(path.join(base, "old-node-"));
      const outcome = await execute(node.command, [...node.args, BIN, ...args], {
        PATH: process.env["PATH"] ?? "",
        HOME: user,
      });
      expect(outcome.code).toBe(1);
      expect(outcome.stdout).toBe("");
      expect(outcome.stderr).toBe(
        `xzatoma: needs Node.js 22.19 or newer, but ${node.command} is Node ${node.version}; ` +
          "run 'bash tools/start.sh' in this checkout: it installs Node 24 for XZatoma alone and sets up an 'xzatoma' command that uses it.\n",
      );
      // Nothing was loaded: no history database was opened.
      expect(existsSync(path.join(user, ".xzatoma"))).toBe(false);
    },
  );
});

describe("the xzatoma command after setup", () => {
  // The Node the project runs on (the toolchain's, or a new enough system Node).
  const projectNode = path.dirname(process.execPath);
  const source = (env: Record<string, string>) =>
    execute("bash", ["-c", `source ${quote(ENV_SH)}`], env, ROOT);

  it("is linked into ~/.local/bin when that is on PATH, runs with the project's Node, and a second setup changes nothing", async () => {
    const user = path.join(base, "user");
    const bin = path.join(user, ".local", "bin");
    await mkdir(user);
    const first = await source({ HOME: user, PATH: `${bin}:${projectNode}:/usr/bin:/bin` });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`xzatoma-setup: the xzatoma command is ${bin}/xzatoma`);
    const launcher = readlinkSync(path.join(bin, "xzatoma"));
    expect(launcher).toBe(path.join(ROOT, ".toolchain", "bin", "xzatoma"));

    const again = await source({ HOME: user, PATH: `${bin}:${projectNode}:/usr/bin:/bin` });
    expect(again).toMatchObject({ code: 0, stderr: "" });
    expect(readlinkSync(path.join(bin, "xzatoma"))).toBe(launcher);

    // A shell whose own `node` is the system's (Node 20 on many machines) finds the
    // command, and the command brings its own Node: `history list` works.
    const shell = { HOME: user, PATH: `${bin}:/usr/bin:/bin` };
    const version = await execute("bash", ["-c", "xzatoma --version"], shell);
    expect(version).toMatchObject({ code: 0, stdout: `xzatoma ${VERSION}\n` });
    const list = await execute("bash", ["-c", "xzatoma history list"], shell);
    expect(list).toMatchObject({ code: 0, stdout: "No conversations yet.\n", stderr: "" });
  });

  it("says how to put its directory on PATH when it is not, and leaves another xzatoma alone", async () => {
    const user = path.join(base, "user2");
    const elsewhere = path.join(user, "tools");
    await mkdir(user);
    const env = { HOME: user, PATH: `${projectNode}:/usr/bin:/bin`, XZATOMA_BIN_DIR: elsewhere };
    const outcome = await source(env);
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toContain(
      `xzatoma-setup: ${elsewhere} is not on your PATH; add it: echo 'export PATH="${elsewhere}:$PATH"' >> ~/.bashrc`,
    );

    const taken = path.join(user, "taken");
    await mkdir(taken);
    await writeFile(path.join(taken, "xzatoma"), "#!/bin/sh\necho mine\n", { mode: 0o755 });
    const clash = await source({ ...env, XZATOMA_BIN_DIR: taken });
    expect(clash.code).toBe(0);
    expect(clash.stderr).toContain(`${taken}/xzatoma is another xzatoma, left alone`);
    expect(execFileSync(path.join(taken, "xzatoma"), { encoding: "utf8" })).toBe("mine\n");
  });
});

describe("xzatoma history list with filters", () => {
  it("names the filter that matched nothing instead of saying there is no history", async () => {
    const database = path.join(base, "filters.db");
    const none = await xzatoma([
      "--storage-path",
      database,
      "history",
      "list",
      "--status",
      "failed",
    ]);
    expect(none).toMatchObject({
      code: 0,
      stdout: "No conversations match --status failed: there are no conversations yet.\n",
    });

    const history = openHistory({ path: database });
    const conversation = history.createConversation({ title: "t", provider: "p", model: "m" });
    history.finishConversation(conversation.id, {
      status: "completed",
      stopReason: "completed",
      turns: 1,
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    });
    history.close();

    const filtered = await xzatoma([
      "--storage-path",
      database,
      "history",
      "list",
      "--status",
      "failed",
      "--status",
      "stopped",
      "--since",
      "2020-01-01",
    ]);
    expect(filtered.stdout).toBe(
      "No conversations match --status failed --status stopped --since 2020-01-01 (1 conversation saved in all; 'xzatoma history list' shows it).\n",
    );
    const pastTheEnd = await xzatoma([
      "--storage-path",
      database,
      "history",
      "list",
      "--page",
      "3",
    ]);
    expect(pastTheEnd.stdout).toBe(
      "No conversations on page 3; there is 1 page (1 conversation).\n",
    );
    const unfiltered = await xzatoma(["--storage-path", database, "history", "list"]);
    expect(unfiltered.stdout).toContain(conversation.id);
  });
});

describe("data files are private", () => {
  it("creates the data directory 0700 and the history database 0600", async () => {
    const user = path.join(base, "private");
    await mkdir(user);
    const outcome = await xzatoma(["history", "list"], { HOME: user });
    expect(outcome).toMatchObject({ code: 0, stdout: "No conversations yet.\n" });
    expect(mode(path.join(user, ".xzatoma"))).toBe(0o700);
    expect(mode(path.join(user, ".xzatoma", "history.db"))).toBe(0o600);
  });

  it("keeps a run's history and audit log 0600", async () => {
    const user = path.join(base, "private-run");
    await mkdir(user);
    const outcome = await xzatoma(
      ["run", "--prompt", "What is this project?", "--host", twoTools.url],
      {
        HOME: user,
      },
    );
    expect(outcome.code).toBe(0);
    const data = path.join(user, ".xzatoma");
    expect(mode(data)).toBe(0o700);
    expect(mode(path.join(data, "history.db"))).toBe(0o600);
    expect(mode(path.join(data, "audit.log"))).toBe(0o600);
  });
});

describe("refusals", () => {
  it("reads as sentences when a run refuses a call that needs a person", async () => {
    // Deleting an agent's instruction file needs a person; nobody is asked in `run`.
    await writeFile(path.join(workspace, "AGENTS.md"), "# agents\n");
    const deleter = await startScriptedOllama({
      scenario: (request) =>
        request.messages.some((message) => message.role === "tool")
          ? { content: "Left it." }
          : { toolCalls: [{ name: "delete_path", arguments: { path: "AGENTS.md" } }] },
    });
    try {
      const outcome = await xzatoma([
        "run",
        "--prompt",
        "delete the agents file",
        "--mode",
        "write",
        "--host",
        deleter.url,
      ]);
      expect(outcome.code).toBe(0);
      const line = outcome.stderr
        .split("\n")
        .find((text) => text.includes("✗ The call to 'delete_path'"));
      expect(line).toMatch(/^ {2}✗ The call to 'delete_path' was not approved: [A-Za-z`].*\.$/);
      expect(line).toContain(
        "Only a person's yes can allow this, and no one is asked here (approval policy: never); do it another way, or ask the user to do it. Do not retry it; continue another way or explain what you need.",
      );
      expect(line).not.toMatch(/\.\s*\./);
      expect(outcome.stderr).not.toContain("--allow-dangerous");
      expect(existsSync(path.join(workspace, "AGENTS.md"))).toBe(true);
    } finally {
      await deleter.close();
    }
  });
});

describe("colour", () => {
  const args = () => ["run", "--prompt", "What is this project?", "--host", twoTools.url];

  it("colours the tool lines in a terminal", async () => {
    const outcome = await xzatomaInTerminal(args(), {});
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("\x1b[2m→ list_directory .");
  });

  it("prints no colour or other escape sequence with NO_COLOR set, even in a terminal", async () => {
    const outcome = await xzatomaInTerminal(args(), { NO_COLOR: "1" });
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("→ list_directory .");
    expect(outcome.stdout).toContain("README.md begins with: # Acme rockets");
    expect(outcome.stdout).not.toContain("\x1b");
  });
});

describe("a command that never finishes", () => {
  it("fails with exit 1 and says so, instead of exiting 0 when nothing keeps node waiting", async () => {
    // The bin as published, next to a main whose promise never settles (as one did while the
    // bash grammar compiled in a background task the event loop did not wait for).
    const install = await mkdtemp(path.join(base, "stalled-"));
    await mkdir(path.join(install, "bin"));
    await mkdir(path.join(install, "dist"));
    for (const file of readdirSync(path.dirname(BIN)))
      await writeFile(
        path.join(install, "bin", file),
        readFileSync(path.join(path.dirname(BIN), file)),
      );
    await writeFile(
      path.join(install, "dist", "main.js"),
      "export function main() { return new Promise(() => {}); }\n",
    );
    await writeFile(
      path.join(install, "package.json"),
      JSON.stringify({ type: "module", version: "0.0.0" }),
    );
    const outcome = await execute(
      process.execPath,
      [path.join(install, "bin", "xzatoma.js"), "policy", "check-command", "ls"],
      { PATH: process.env["PATH"] ?? "", HOME: install, NODE_DISABLE_COMPILE_CACHE: "1" },
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe("");
    expect(outcome.stderr).toContain("xzatoma: stopped before the command finished");
  });
});
