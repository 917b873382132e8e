// `xzatoma run` shows its work on stderr and keeps stdout for the answer: each tool call with
// a short view of its output, a closing summary, a spinner with the seconds waited when
// stderr is a terminal; none of it with --quiet or --json. `run --json` reports usage and
// configuration errors as an event. Bare `xzatoma` opens chat.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedOllama, type ScriptedOllama } from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BIN, runCli } from "./cli.test-support.js";

let base: string;
let workspace: string;
let home: string;
/** Runs `seq 1 20`, writes notes.md, then answers slowly, word by word. */
let server: ScriptedOllama;
/** Waits ten seconds before its answer. */
let slow: ScriptedOllama;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-run-shows-work-")));
  workspace = path.join(base, "project");
  home = path.join(base, "home");
  await mkdir(workspace, { recursive: true });
  await mkdir(home, { recursive: true });
  server = await startScriptedOllama({
    scenario: (request) => {
      const done = request.messages.filter((message) => message.role === "tool").length;
      if (done === 0)
        return { toolCalls: [{ name: "terminal", arguments: { command: "seq 1 20" } }] };
      if (done === 1)
        return {
          toolCalls: [
            { name: "write_file", arguments: { path: "notes.md", content: "# Notes\n" } },
          ],
        };
      return { content: "All done, the notes are written.", chunkDelayMs: 20 };
    },
  });
  slow = await startScriptedOllama({
    scenario: () => ({ content: "Finally.", delayMs: 10_000 }),
  });
});

beforeEach(async () => {
  await rm(path.join(workspace, "notes.md"), { force: true });
});

afterAll(async () => {
  await server.close();
  await slow.close();
  await rm(base, { recursive: true, force: true });
});

const env = (host = server.url) => ({
  HOME: home,
  PATH: process.env["PATH"] ?? "",
  OLLAMA_HOST: host,
});
const run = (...flags: string[]) =>
  runCli(["run", "--mode", "write", ...flags, "Write the notes."], { cwd: workspace, env: env() });

describe("run shows its work", () => {
  it("on stderr: each tool call with a short view of its output, then a summary; stdout is the answer", async () => {
    const outcome = await run();
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe("All done, the notes are written.\n");
    expect(outcome.stderr).toContain(
      ["→ terminal seq 1 20", "  exit code 0", "  1", "  … 17 more lines", "  19", "  20"].join(
        "\n",
      ),
    );
    expect(outcome.stderr).toContain("→ write_file notes.md");
    expect(outcome.stderr).toContain("  Created notes.md (8 bytes).");
    expect(outcome.stderr).toMatch(
      /^completed: 3 turns, 2 tool calls, \d+ tokens \(\d+ in, \d+ out\), \d+\.\d s$/m,
    );
    const id = /^conversation ([0-9A-Z]{26}) \(xzatoma history show \1\)$/m.exec(outcome.stderr);
    expect(id).not.toBeNull();
    expect(outcome.stderr).toMatch(/^files changed: notes\.md$/m);
    expect(await readFile(path.join(workspace, "notes.md"), "utf8")).toBe("# Notes\n");
  });

  it("says only the answer with --quiet", async () => {
    const outcome = await run("--quiet");
    expect(outcome).toMatchObject({ code: 0, stdout: "All done, the notes are written.\n" });
    expect(outcome.stderr).toBe("");
  });

  it("keeps stdout to events and stderr quiet with --json", async () => {
    const outcome = await run("--json");
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toBe("");
    const types = outcome.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types.at(-1)).toBe("finished");
  });

  it("draws a spinner with the seconds waited while the model is slow, when stderr is a terminal", async () => {
    const session = `xz-run-spinner-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync("tmux", args, { encoding: "utf8" });
    tmux(
      "new-session",
      "-d",
      "-s",
      session,
      "-x",
      "120",
      "-y",
      "20",
      "env",
      "-i",
      `HOME=${home}`,
      `PATH=${process.env["PATH"] ?? ""}`,
      `OLLAMA_HOST=${slow.url}`,
      "TERM=xterm-256color",
      process.execPath,
      BIN,
      "run",
      "-w",
      workspace,
      "Say it when you are ready.",
    );
    tmux("set-option", "-t", session, "remain-on-exit", "on");
    try {
      const seen = async (predicate: (text: string) => boolean) => {
        const deadline = Date.now() + 40_000;
        for (;;) {
          // With the scrollback: the pane scrolls when the process ends.
          const text = tmux("capture-pane", "-p", "-t", session, "-S", "-100");
          if (predicate(text)) return text;
          if (Date.now() > deadline) throw new Error(`the screen shows:\n${text}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      await seen((text) => /waiting for the model [1-9]\d* s/.test(text));
      const final = await seen((text) => text.includes("Finally."));
      // The spinner's line was cleared before the answer was written.
      expect(final).not.toContain("waiting for the model");
    } finally {
      tmux("kill-session", "-t", session);
    }
  }, 60_000);
});

describe("run --json before the run starts", () => {
  it("reports a configuration error as an error event", async () => {
    const config = path.join(base, "bad.yaml");
    await writeFile(config, "agent:\n  max_turnz: 3\n");
    const outcome = await runCli(["run", "--json", "--config", config, "hi"], {
      cwd: workspace,
      env: env(),
    });
    expect(outcome.code).toBe(1);
    const event = JSON.parse(outcome.stdout.trim()) as Record<string, unknown>;
    expect(event).toMatchObject({
      type: "error",
      error: { code: "CONFIG_INVALID", message: expect.stringContaining("agent.max_turnz") },
      exitCode: 1,
    });
  });

  it("reports a usage error as an error event", async () => {
    const outcome = await runCli(["run", "--json", "--max-turns", "zero", "hi"], {
      cwd: workspace,
      env: env(),
    });
    expect(outcome.code).toBe(2);
    expect(JSON.parse(outcome.stdout.trim())).toMatchObject({
      type: "error",
      error: { code: "USAGE", message: expect.stringContaining("--max-turns") },
      exitCode: 2,
    });
  });
});

it("opens chat when no command is given", async () => {
  const outcome = await runCli([], { cwd: workspace, env: env(), input: "/status\n" });
  expect(outcome.code).toBe(0);
  expect(outcome.stdout).toContain("XZatoma chat in");
  expect(outcome.stdout).toContain(`workspace: ${workspace}`);
});
