// End-to-end tests of the built `xzatoma` binary as a child process, against the
// scripted Ollama-protocol server on 127.0.0.1. Run `nx build cli` first (the test
// target depends on it).
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCENARIOS,
  startScriptedOllama,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";

const BIN = fileURLToPath(new URL("../bin/xzatoma.js", import.meta.url));

interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function xzatoma(
  args: readonly string[],
  env: Record<string, string> = {},
  onSpawn?: (child: ReturnType<typeof spawn>) => void,
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: workspace,
      env: { PATH: process.env["PATH"] ?? "", HOME: workspace, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    onSpawn?.(child);
  });
}

let base: string;
let workspace: string;
let twoTools: ScriptedOllama;
let forever: ScriptedOllama;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-cli-")));
  workspace = path.join(base, "project");
  await mkdir(path.join(workspace, "src"), { recursive: true });
  await writeFile(path.join(workspace, "README.md"), "# Acme rockets\n\nBuilds rockets.\n");
  await writeFile(path.join(workspace, "src", "main.ts"), "console.log('launch');\n");
  twoTools = await startScriptedOllama({ scenario: SCENARIOS["two-tools"]! });
  forever = await startScriptedOllama({ scenario: SCENARIOS["forever"]! });
});

afterAll(async () => {
  await twoTools.close();
  await forever.close();
  await rm(base, { recursive: true, force: true });
});

describe("xzatoma run", () => {
  it("makes two tool calls over the workspace and prints the final answer", async () => {
    const before = twoTools.requests.length;
    const outcome = await xzatoma([
      "run",
      "--prompt",
      "What is this project?",
      "--host",
      twoTools.url,
    ]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe("README.md begins with: # Acme rockets (after 2 tool calls)\n");
    expect(outcome.stderr).toBe("→ list_directory .\n→ read_file README.md\n");
    const requests = twoTools.requests.slice(before);
    expect(requests).toHaveLength(3);
    const toolMessages = requests[2]!.messages.filter((message) => message.role === "tool");
    expect(toolMessages.map((message) => message.content)).toEqual([
      "README.md file 32\nsrc dir 0",
      "# Acme rockets\n\nBuilds rockets.\n",
    ]);
    expect(requests[0]!.messages[0]).toMatchObject({ role: "system" });
    expect(requests[0]!.tools?.map((tool) => tool.function.name)).toEqual([
      "read_file",
      "list_directory",
    ]);
  });

  it("prints the event stream as JSON lines with --json", async () => {
    const outcome = await xzatoma(["run", "--prompt", "What is this project?", "--json"], {
      OLLAMA_HOST: twoTools.url,
    });
    expect(outcome.code).toBe(0);
    const events = outcome.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string });
    expect(events[0]).toMatchObject({ type: "run-started", input: "What is this project?" });
    expect(events.filter((event) => event.type === "tool-result")).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({
      type: "finished",
      stopReason: "completed",
      turns: 3,
      toolCalls: 2,
    });
  });

  it("stops a model that never finishes at --max-turns, with exit 1 and a clear message", async () => {
    const before = forever.requests.length;
    const outcome = await xzatoma([
      "run",
      "--prompt",
      "loop",
      "--host",
      forever.url,
      "--max-turns",
      "4",
    ]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(
      "xzatoma: stopped: no final answer after 4 model requests (raise it with --max-turns).",
    );
    expect(forever.requests.length - before).toBe(4);
  });

  it("says in one line that the server is down, exit 1, no stack trace", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const outcome = await xzatoma(["run", "--prompt", "hi"], { OLLAMA_HOST: `127.0.0.1:${port}` });
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe("");
    expect(outcome.stderr).toBe(
      `error [PROVIDER_UNAVAILABLE]: Cannot reach Ollama at http://127.0.0.1:${port} (ECONNREFUSED). ` +
        "Start it with 'ollama serve', or point OLLAMA_HOST (or --host) at a running server.\n",
    );
  });
});

describe("xzatoma run interrupted", () => {
  it("cancels the model request on Ctrl-C and exits 130", async () => {
    const slow = await startScriptedOllama({
      scenario: () => ({ content: "too late", delayMs: 10_000 }),
    });
    try {
      const outcome = await xzatoma(
        ["run", "--prompt", "wait", "--host", slow.url],
        {},
        (child) => {
          const poll = setInterval(() => {
            if (slow.requests.length > 0) {
              clearInterval(poll);
              child.kill("SIGINT");
            }
          }, 10);
        },
      );
      expect(outcome.code).toBe(130);
      expect(outcome.stdout).toBe("");
      expect(outcome.stderr).toBe("xzatoma: interrupted.\n");
    } finally {
      await slow.close();
    }
  });
});

describe("xzatoma usage", () => {
  it.each([
    [["run"], "required option '-p, --prompt <text>' not specified"],
    [
      ["run", "--prompt", "x", "--max-turns", "zero"],
      "--max-turns must be a positive whole number, got 'zero'.",
    ],
    [
      ["run", "--prompt", "x", "--provider", "gpt"],
      "--provider: unknown provider 'gpt'. Supported: ollama.",
    ],
    [
      ["run", "--prompt", "x", "--workspace", "no/such/dir"],
      "--workspace: 'no/such/dir' is not a directory.",
    ],
    [["launch"], "unknown command 'launch'"],
    [[], "no command given"],
  ])("%j is a usage error with exit 2", async (args, message) => {
    const outcome = await xzatoma(args);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(message);
  });

  it("prints the version and help with exit 0", async () => {
    expect(await xzatoma(["--version"])).toMatchObject({ code: 0, stdout: "xzatoma 0.1.0\n" });
    const help = await xzatoma(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: xzatoma");
    expect(help.stdout).toContain("run [options]");
  });
});
