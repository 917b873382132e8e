// The built `xzatoma` as a newcomer meets it: prompts from standard input and as words,
// chat fed by a pipe, and the chat commands that report on or change the session.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCENARIOS,
  startScriptedOllama,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { runCli, unusedPort } from "./cli.test-support.js";

let base: string;
let workspace: string;
let home: string;
let echo: ScriptedOllama;

/** Runs the CLI with `input` on its standard input (a pipe that then ends). */
function xzatoma(args: readonly string[], input: string, env: Record<string, string> = {}) {
  return runCli(args, {
    cwd: workspace,
    env: { PATH: process.env["PATH"] ?? "", HOME: home, OLLAMA_HOST: echo.url, ...env },
    input,
  });
}

/** The prompt tokens the scripted server reports for a request (its own rule). */
const promptTokens = (request: ScriptedOllama["requests"][number]) =>
  Math.ceil(JSON.stringify(request.messages).length / 4);

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-front-")));
  workspace = path.join(base, "project");
  home = path.join(base, "home");
  await mkdir(home, { recursive: true });
  await mkdir(workspace, { recursive: true });
  await writeFile(path.join(workspace, "README.md"), "# Acme\n");
  echo = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
});

afterAll(async () => {
  await echo.close();
  await rm(base, { recursive: true, force: true });
});

describe("xzatoma run takes its prompt as other agent CLIs do", () => {
  it("from standard input when no prompt is given", async () => {
    const outcome = await xzatoma(["run"], "hello from a pipe\n");
    expect(outcome).toMatchObject({ code: 0, stdout: "You said: hello from a pipe\n" });
  });

  it("as words after run", async () => {
    const outcome = await xzatoma(["run", "hi", "there"], "");
    expect(outcome).toMatchObject({ code: 0, stdout: "You said: hi there\n" });
  });

  it("from standard input with -p - (not a literal dash)", async () => {
    const outcome = await xzatoma(["run", "-p", "-"], "piped prompt");
    expect(outcome).toMatchObject({ code: 0, stdout: "You said: piped prompt\n" });
  });

  it("says at the end how many calls nobody could approve, and not to rerun with --allow-dangerous", async () => {
    const toucher = await startScriptedOllama({
      scenario: (_request, index) =>
        index === 0
          ? { toolCalls: [{ name: "terminal", arguments: { command: "touch made.txt" } }] }
          : { content: "I could not create it." },
    });
    try {
      const outcome = await xzatoma(["run", "--mode", "write", "--no-sandbox", "make it"], "", {
        OLLAMA_HOST: toucher.url,
      });
      expect(outcome.code).toBe(0);
      expect(outcome.stderr).toContain(
        "xzatoma: 1 call(s) needed a person's yes (network, places outside the workspace, secrets, protected paths, .git writes, or no sandbox) and were refused; review them and run them yourself, or use 'xzatoma chat' to be asked.",
      );
      expect(outcome.stderr).not.toContain("--allow-dangerous");
    } finally {
      await toucher.close();
    }
  });

  it("refuses two prompts, or an empty one, with a usage error that says what to give", async () => {
    const both = await xzatoma(["run", "words", "--prompt", "flag"], "");
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("not both");
    const empty = await xzatoma(["run"], "   \n");
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("standard input held no prompt");
  });
});

describe("one place for state", () => {
  it("history reads the database run wrote, wherever the configuration puts the data directory", async () => {
    const config = path.join(base, "elsewhere.yaml");
    const dataDir = path.join(base, "custom-data");
    await writeFile(config, `persistence:\n  data_dir: ${dataDir}\n`);
    const ran = await xzatoma(["--config", config, "run", "remember this"], "");
    expect(ran.code).toBe(0);
    const listed = await xzatoma(["--config", config, "history", "list", "--json"], "");
    expect(listed.code).toBe(0);
    const listing = JSON.parse(listed.stdout) as { items: { title: string }[] };
    const titles = listing.items.map((conversation) => conversation.title);
    expect(titles).toContain("remember this");
    // Without the configuration, the default data directory holds no such conversation.
    const fallback = await xzatoma(["history", "list", "--json"], "");
    expect(fallback.stdout).not.toContain("remember this");
  });
});

describe("xzatoma chat fed by a pipe", () => {
  it("answers each line in turn and ends cleanly when the input ends", async () => {
    const outcome = await xzatoma(["chat"], "hello\nhow are you\n");
    expect(outcome.stderr).not.toContain("ERR_USE_AFTER_CLOSE");
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("You said: hello");
    expect(outcome.stdout).toContain("You said: how are you");
    expect(outcome.stdout).toMatch(/Conversation saved: \w+/);
  });

  it("/status counts the tokens of the whole conversation, not of the last request", async () => {
    const before = echo.requests.length;
    const outcome = await xzatoma(["chat"], "one\ntwo\n/status\n");
    expect(outcome.code).toBe(0);
    const requests = echo.requests.slice(before);
    expect(requests).toHaveLength(2);
    const total = requests.map(promptTokens).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(promptTokens(requests[1]!));
    expect(outcome.stdout).toContain(`tokens in this conversation: ${total} in`);
  });

  it("/model with a model the provider does not have is refused and the model stays", async () => {
    const outcome = await xzatoma(["chat"], "/model missing-x\n/status\n");
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("missing-x");
    expect(outcome.stdout).toContain("The model stays llama3.2:latest");
    expect(outcome.stdout).not.toContain("--model");
    expect(outcome.stdout).toContain("model: ollama: llama3.2:latest");
  });

  it("/models with the server down prints one error line and the session goes on", async () => {
    const port = await unusedPort();
    const outcome = await xzatoma(["chat", "--host", `127.0.0.1:${port}`], "/models\n/status\n");
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/error \[PROVIDER_UNAVAILABLE\]: .*127\.0\.0\.1:\d+/);
    expect(outcome.stdout).not.toMatch(/TypeError|at .*\.js:\d+/);
    expect(outcome.stdout).toContain("mode: planning");
  });
});
