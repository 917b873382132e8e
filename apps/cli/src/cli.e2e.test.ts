// End-to-end tests of the built `xzatoma` binary as a child process, against the
// scripted Ollama-protocol server on 127.0.0.1. Run `nx build cli` first (the test
// target depends on it).
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
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
      env: { PATH: process.env["PATH"] ?? "", HOME: home, ...env },
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
let home: string;
let twoTools: ScriptedOllama;
let forever: ScriptedOllama;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-cli-")));
  workspace = path.join(base, "project");
  home = path.join(base, "home");
  await mkdir(home, { recursive: true });
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
    // Each tool call with a short view of its output, then the summary.
    expect(outcome.stderr).toMatch(
      /^→ list_directory \.\n {2}\(2 lines, 27 bytes\)\n→ read_file README\.md\n {2}\(3 lines, 32 bytes\)\ncompleted: 3 turns, 2 tool calls, /,
    );
    const requests = twoTools.requests.slice(before);
    expect(requests).toHaveLength(3);
    const toolMessages = requests[2]!.messages.filter((message) => message.role === "tool");
    expect(toolMessages.map((message) => message.content)).toEqual([
      "README.md file 32\nsrc dir 0",
      "# Acme rockets\n\nBuilds rockets.\n",
    ]);
    expect(requests[0]!.messages[0]).toMatchObject({ role: "system" });
    const offered = requests[0]!.tools?.map((tool) => tool.function.name) ?? [];
    expect(offered).toEqual(
      expect.arrayContaining(["read_file", "list_directory", "grep", "find_path", "fetch"]),
    );
    expect(offered).not.toContain("terminal");
    expect(offered).not.toContain("write_file");
  });

  it("loads none of Node's process, worker or crypto modules before its first model request", async () => {
    // A preload records the built-in modules loaded when the first request leaves
    // (docs/explanation/start-up-and-memory.md, "What a start still loads").
    const preload = path.join(base, "first-request-modules.cjs");
    const record = path.join(base, "first-request-modules.txt");
    await writeFile(
      preload,
      `const http = process.getBuiltinModule("node:http");
const request = http.request;
http.request = function (...args) {
  http.request = request;
  require("node:fs").writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.moduleLoadList));
  return request.apply(this, args);
};
`,
    );
    const args = ["run", "--prompt", "What is this project?", "--host", twoTools.url];
    // The first run of a home creates its history database; the one measured opens it.
    expect((await xzatoma(args)).code).toBe(0);
    const outcome = await xzatoma(args, { NODE_OPTIONS: `--require ${preload}` });
    expect(outcome.code).toBe(0);
    const loaded = JSON.parse(await readFile(record, "utf8")) as string[];
    expect(loaded).toContain("NativeModule http");
    for (const module of ["child_process", "crypto", "worker_threads", "vm", "dns", "dgram"]) {
      expect(loaded, module).not.toContain(`NativeModule ${module}`);
    }
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

  it("stops a model that never finishes at --max-turns, with the limit exit code 3 and a clear message", async () => {
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
    expect(outcome.code).toBe(3);
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
      `error [PROVIDER_UNAVAILABLE]: Cannot reach Ollama at http://127.0.0.1:${port} (ECONNREFUSED). Gave up after 3 attempts.\n` +
        "hint: Start Ollama ('ollama serve'), or point OLLAMA_HOST or --host at it.\n",
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
    [
      ["run"],
      "standard input held no prompt; give the prompt as words, --prompt TEXT or --plan FILE.",
    ],
    [["run", "--prompt", "x", "--plan", "p.yaml"], "give either a prompt or --plan, not both."],
    [
      ["run", "--prompt", "x", "--max-turns", "zero"],
      "--max-turns must be a positive whole number, got 'zero'.",
    ],
    [
      ["run", "--prompt", "x", "--provider", "gpt"],
      "argument 'gpt' is invalid. Allowed choices are ollama, openai, copilot, local.",
    ],
    [
      ["run", "--prompt", "x", "--workspace", "no/such/dir"],
      "--workspace: 'no/such/dir' is not a directory.",
    ],
    [["launch"], "unknown command 'launch'"],
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

describe("xzatoma run with plans, mentions and configuration", () => {
  let echo: ScriptedOllama;
  const plans = fileURLToPath(
    new URL("../../../packages/core/src/__fixtures__/plans/", import.meta.url),
  );

  beforeAll(async () => {
    echo = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
  });
  afterAll(async () => {
    await echo.close();
  });

  it.each(["simple_plan.yaml", "simple_plan.json", "simple_plan.md"])(
    "runs the plan %s as numbered guidance",
    async (name) => {
      const outcome = await xzatoma(["run", "--plan", path.join(plans, name), "--host", echo.url]);
      expect(outcome.code).toBe(0);
      expect(outcome.stdout).toContain("You said: You are assisting with the following task:");
      expect(outcome.stdout).toContain("1. Echo Hello: Print a greeting message");
    },
  );

  it.each([
    ["invalid_no_name.yaml", "invalid_no_name.yaml: name: must not be empty"],
    ["invalid_no_steps.json", "invalid_no_steps.json: steps: must have at least one step"],
    ["invalid_no_steps.md", "invalid_no_steps.md: steps: must have at least one step"],
    [
      "invalid_step_no_action.yaml",
      "invalid_step_no_action.yaml: steps[0].action: must not be empty",
    ],
    ["empty_file.yaml", "empty_file.yaml: the plan file is empty."],
    ["malformed_json.json", "malformed_json.json: not valid JSON"],
    ["malformed_yaml.yaml", "malformed_yaml.yaml: not valid YAML"],
    ["unknown_extension.txt", "unknown_extension.txt: unsupported plan format '.txt'"],
  ])("reports the invalid plan %s naming the file and field", async (name, message) => {
    const outcome = await xzatoma(["run", "--plan", path.join(plans, name), "--host", echo.url]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`error [PLAN_INVALID]: ${path.join(plans, message)}`);
    expect(echo.requests).not.toContainEqual(
      expect.objectContaining({
        messages: expect.arrayContaining([
          expect.objectContaining({ content: expect.stringContaining(name) }),
        ]),
      }),
    );
  });

  it("expands mentions in --prompt and says which could not load", async () => {
    const outcome = await xzatoma([
      "run",
      "--prompt",
      "Summarise @README.md#L1-1 and @missing.txt",
      "--host",
      echo.url,
    ]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("# Acme rockets");
    expect(outcome.stdout).not.toContain("Builds rockets.");
    expect(outcome.stderr).toContain("could not load @missing.txt");
  });

  it("refuses an @url mention that would need a yes in restricted mode, without connecting", async () => {
    const outcome = await xzatoma([
      "run",
      "--prompt",
      "see @url:http://example.com:8080/x",
      "--host",
      echo.url,
    ]);
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toContain("could not load @url:http://example.com:8080/x");
    expect(outcome.stderr).toContain(
      "port 8080 is not 80 or 443; a person should confirm this request, and no one confirmed it",
    );
    expect(outcome.stdout).toContain("could not be loaded");
  });

  it("takes max_turns from the file, then XZATOMA_AGENT_MAX_TURNS, then --max-turns", async () => {
    const config = path.join(home, "xz.yaml");
    await writeFile(config, "agent:\n  max_turns: 2\n");
    const requests = async (extra: string[], env: Record<string, string> = {}) => {
      const before = forever.requests.length;
      const outcome = await xzatoma(
        ["--config", config, "run", "--prompt", "loop", "--host", forever.url, ...extra],
        env,
      );
      expect(outcome.code).toBe(3);
      return forever.requests.length - before;
    };
    expect(await requests([])).toBe(2);
    expect(await requests([], { XZATOMA_AGENT_MAX_TURNS: "3" })).toBe(3);
    expect(await requests(["--max-turns", "4"], { XZATOMA_AGENT_MAX_TURNS: "3" })).toBe(4);
  });

  it("reports an invalid configuration with its key path", async () => {
    const config = path.join(home, "bad.yaml");
    await writeFile(config, "agent:\n  max_turn: 5\n  timeout_seconds: soon\n");
    const outcome = await xzatoma(["--config", config, "run", "--prompt", "x", "--host", echo.url]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(
      'agent.max_turn: unknown key "max_turn"; did you mean "max_turns"?',
    );
    expect(outcome.stderr).toContain("agent.timeout_seconds");
  });
});

describe("xzatoma run reports plan progress", () => {
  it("prints which instructions the model marked done", async () => {
    const planner = await startScriptedOllama({
      scenario: (request) =>
        request.messages.some((message) => message.role === "tool")
          ? { content: "Both done." }
          : {
              toolCalls: [
                { name: "mark_instruction_done", arguments: { number: 1 } },
                { name: "mark_instruction_done", arguments: { number: 2 } },
              ],
            },
    });
    try {
      const plan = path.join(home, "two.yaml");
      await writeFile(
        plan,
        "goal: tidy up\ninstructions:\n  - list the files\n  - read the readme\n",
      );
      const outcome = await xzatoma(["run", "--plan", plan, "--host", planner.url]);
      expect(outcome.code).toBe(0);
      expect(outcome.stderr).toContain(
        "Completed 2/2 instructions\n✓ list the files\n✓ read the readme",
      );
      const tools = planner.requests[0]!.tools?.map((tool) => tool.function.name);
      expect(tools).toContain("mark_instruction_done");
    } finally {
      await planner.close();
    }
  });
});

describe("history survives a crash", () => {
  it("keeps every completed turn when the CLI is killed with -9, and chat --resume continues it", async () => {
    const { DatabaseSync } = await import("node:sqlite");
    const database = path.join(home, "crash.db");
    const slow = await startScriptedOllama({
      scenario: () => ({
        content: "Looking.",
        toolCalls: [{ name: "list_directory", arguments: { path: "." } }],
        delayMs: 100,
      }),
    });
    const echo = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
    try {
      const child = spawn(
        process.execPath,
        [BIN, "run", "--prompt", "crash test", "--host", slow.url, "--max-turns", "100"],
        {
          cwd: workspace,
          env: {
            PATH: process.env["PATH"] ?? "",
            HOME: home,
            XZATOMA_PERSISTENCE_DB_PATH: database,
          },
          stdio: "ignore",
        },
      );
      const closed = new Promise((resolve) => child.on("close", resolve));
      while (slow.requests.length < 4) await new Promise((resolve) => setTimeout(resolve, 20));
      child.kill("SIGKILL");
      await closed;

      const db = new DatabaseSync(database);
      expect(db.prepare("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
      const stored = db.prepare("SELECT count(*) AS n FROM messages").get() as { n: number };
      // The user message and three finished turns (assistant + tool result each) at least.
      expect(stored.n).toBeGreaterThanOrEqual(7);
      db.close();

      const list = await xzatoma(["--storage-path", database, "history", "list", "--json"]);
      const { items } = JSON.parse(list.stdout) as {
        items: { id: string; status: string; title: string }[];
      };
      expect(items[0]).toMatchObject({ status: "running", title: "crash test" });
      const id = items[0]!.id;

      const chat = spawn(
        process.execPath,
        [BIN, "--storage-path", database, "chat", "--resume", id, "--host", echo.url],
        {
          cwd: workspace,
          env: { PATH: process.env["PATH"] ?? "", HOME: home },
          stdio: ["pipe", "pipe", "pipe"],
        },
      );
      let screen = "";
      chat.stdout.on("data", (chunk: Buffer) => (screen += chunk.toString()));
      const chatClosed = new Promise((resolve) => chat.on("close", resolve));
      chat.stdin.write("and now?\n");
      while (!screen.includes("You said: and now?"))
        await new Promise((resolve) => setTimeout(resolve, 20));
      chat.stdin.end("exit\n");
      await chatClosed;
      const sent = echo.requests.at(-1)!.messages;
      expect(sent.find((message) => message.role === "user")?.content).toBe("crash test");
      expect(sent.filter((message) => message.role === "tool").length).toBeGreaterThanOrEqual(3);
      expect(screen).toContain(`Conversation saved: ${id}`);
      const shown = await xzatoma(["--storage-path", database, "history", "show", id]);
      expect(shown.stdout).toContain("user: and now?");
    } finally {
      await slow.close();
      await echo.close();
    }
  });
});

describe("xzatoma policy", () => {
  it.each([
    ["sudo rm -rf /", "forbidden"],
    ["ls -la", "direct"],
    ["git status && ls | wc -l", "direct"],
    ["npm test", "sandbox"],
    ["curl https://example.com", "escalate"],
  ])("check-command %j is %s", async (command, outcome) => {
    const result = await xzatoma(["policy", "check-command", command, "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ command, outcome, approvalPolicy: "never" });
  });

  it("names what escalates, and what each approval policy makes of it", async () => {
    const result = await xzatoma(["policy", "check-command", "curl https://example.com", "--json"]);
    expect(JSON.parse(result.stdout)).toMatchObject({
      escalations: [{ kind: "network" }],
      decision: "block",
      decisions: { untrusted: "confirm", "on-escalation": "confirm", never: "block" },
    });
  });

  it("without a sandbox, a command that is not provably read-only needs a person", async () => {
    const result = await xzatoma(["policy", "check-command", "npm test", "--no-sandbox", "--json"]);
    expect(JSON.parse(result.stdout)).toMatchObject({
      outcome: "sandbox",
      sandbox: "none",
      decisions: { untrusted: "confirm", "on-escalation": "confirm", never: "block" },
    });
  });

  it("still takes the old --mode, with a notice", async () => {
    const result = await xzatoma([
      "policy",
      "check-command",
      "--mode",
      "interactive",
      "npm test",
      "--json",
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("--mode is deprecated");
    expect(JSON.parse(result.stdout)).toMatchObject({ approvalPolicy: "untrusted" });
  });

  it("says in text what happens and what each approval policy makes of it", async () => {
    const result = await xzatoma(["policy", "check-command", "curl https://example.com"]);
    expect(result.stdout).toMatch(
      /^escalate: needs a person \(an escalation\)\n {2}`curl` needs the network/,
    );
    expect(result.stdout).toMatch(/\* approval never +refused/);
    expect(result.stdout).toMatch(/ {2}approval on-escalation +asks the person/);
  });

  it.each([
    ["http://169.254.169.254/latest/meta-data/", "block"],
    ["http://127.0.0.1:8080/", "block"],
    ["http://example.com:8080/", "confirm"],
  ])("check-url %s is %s without connecting", async (url, verdict) => {
    const outcome = await xzatoma(["policy", "check-url", url, "--offline", "--json"]);
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toMatchObject({ url, verdict });
  });
});

describe("xzatoma models", () => {
  it("lists the Ollama models and tells what one can do", async () => {
    const list = await xzatoma(["models", "list", "--host", twoTools.url, "--json"]);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({
      provider: "ollama",
      models: [{ id: "llama3.2:latest", parameterSize: "3.2B" }],
    });
    const info = await xzatoma([
      "models",
      "info",
      "llama3.2:latest",
      "--host",
      twoTools.url,
      "--json",
    ]);
    expect(JSON.parse(info.stdout)).toMatchObject({
      provider: "ollama",
      contextWindow: 131072,
      toolCalls: true,
    });
  });
});
