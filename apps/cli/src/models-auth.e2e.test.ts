// End-to-end tests of `xzatoma models` and `xzatoma auth`: the built binary as a child
// process, against the scripted Ollama server on 127.0.0.1. Run `nx build cli` first (the
// test target depends on it).
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCENARIOS,
  startScriptedOllama,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { runCli, unusedPort, type Outcome } from "./cli.test-support.js";

let base: string;
let home: string;
let ollama: ScriptedOllama;

function xzatoma(args: readonly string[], env: Record<string, string> = {}): Promise<Outcome> {
  return runCli(args, {
    cwd: base,
    // No D-Bus session: like a server or a container, there is no keyring.
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: home,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(base, "no-such-bus")}`,
      ...env,
    },
  });
}

/** No stack trace: no `    at ` frame lines, no `Error:` dumps. */
function expectNoStack(text: string): void {
  expect(text).not.toMatch(/^\s+at /m);
  expect(text).not.toContain("TypeError");
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-models-")));
  home = path.join(base, "home");
  await mkdir(home, { recursive: true });
  ollama = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
});

afterAll(async () => {
  await ollama.close();
  await rm(base, { recursive: true, force: true });
});

describe("xzatoma models list", () => {
  it("lists the Ollama server's models with their sizes", async () => {
    const outcome = await xzatoma(["models", "list", "--host", ollama.url]);
    expect(outcome).toEqual({
      code: 0,
      stdout: "ollama (current: llama3.2:latest)\nllama3.2:latest (3.2B)\n",
      stderr: "",
    });
  });

  it("prints the listing as JSON with --json", async () => {
    const outcome = await xzatoma(["models", "list", "--json"], { OLLAMA_HOST: ollama.url });
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toEqual({
      provider: "ollama",
      current: "llama3.2:latest",
      models: [{ id: "llama3.2:latest", contextWindow: null, parameterSize: "3.2B" }],
    });
  });

  it("says in one line which URL it cannot reach, with a hint, and fails without a stack", async () => {
    const url = `http://127.0.0.1:${await unusedPort()}`;
    for (const args of [
      ["models", "list"],
      ["models", "list", "--json"],
    ]) {
      const outcome = await xzatoma([...args, "--host", url]);
      expect(outcome.code).toBe(1);
      expect(outcome.stdout).toBe("");
      const [error, hint, ...rest] = outcome.stderr.trimEnd().split("\n");
      expect(error).toBe(
        `error [PROVIDER_UNAVAILABLE]: Cannot reach Ollama at ${url} (ECONNREFUSED). Gave up after 3 attempts.`,
      );
      expect(hint).toMatch(/^hint: .*'ollama serve'.*--host/);
      expect(rest).toEqual([]);
      expectNoStack(outcome.stderr);
    }
  });
});

describe("xzatoma models info", () => {
  it("describes a model the server has", async () => {
    const outcome = await xzatoma(["models", "info", "llama3.2", "--host", ollama.url]);
    expect(outcome).toEqual({
      code: 0,
      stdout: [
        "ollama: llama3.2",
        "  context window   131072",
        "  max output       unknown",
        "  tool calls       true",
        "  vision           false",
        "",
      ].join("\n"),
      stderr: "",
    });
    const json = await xzatoma(["models", "info", "llama3.2", "--json", "--host", ollama.url]);
    expect(JSON.parse(json.stdout)).toEqual({
      provider: "ollama",
      model: "llama3.2",
      contextWindow: 131072,
      maxOutputTokens: null,
      toolCalls: true,
      vision: false,
    });
  });

  it("fails with one clear line for a model the server does not have", async () => {
    for (const json of [false, true]) {
      const outcome = await xzatoma([
        "models",
        "info",
        "ghost:7b",
        "--host",
        ollama.url,
        ...(json ? ["--json"] : []),
      ]);
      expect(outcome.code).toBe(1);
      expect(outcome.stdout).toBe("");
      expect(outcome.stderr.split("\n")[0]).toBe(
        `error [MODEL_NOT_FOUND]: Ollama at ${ollama.url} has no model 'ghost:7b'. It has llama3.2:latest.`,
      );
      expect(outcome.stderr).not.toContain("unknown");
      expectNoStack(outcome.stderr);
    }
  });

  it("names the file a local model would be, and lists the models in the data directory", async () => {
    const dataDir = path.join(base, "data");
    await mkdir(path.join(dataDir, "models"), { recursive: true });
    const file = path.join(dataDir, "models", "tiny.gguf");
    await writeFile(file, Buffer.concat([Buffer.from("GGUF"), Buffer.alloc(60)]));
    const env = { XZATOMA_HOME: dataDir };
    const listed = await xzatoma(["models", "list", "--provider", "local"], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(
      `local (current: ${path.join(dataDir, "models", "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")})\n${file} (4096 tokens)\n`,
    );
    const missing = await xzatoma(["models", "info", "nope.gguf", "--provider", "local"], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr.split("\n")[0]).toBe(
      `error [MODEL_NOT_FOUND]: No local model file 'nope.gguf': looked at ${path.join(base, "nope.gguf")} and ${path.join(dataDir, "models", "nope.gguf")}.`,
    );
  });
});

describe("xzatoma auth", () => {
  it("reports a token from COPILOT_GITHUB_TOKEN or GITHUB_TOKEN, never the token", async () => {
    const github = await xzatoma(["auth", "status", "copilot"], {
      GITHUB_TOKEN: "ghu_e2eToken0123456789abcdefABCDEF",
    });
    expect(github.code).toBe(0);
    expect(github.stdout).toBe("copilot: env:GITHUB_TOKEN\n");
    const both = await xzatoma(["auth", "status", "--json"], {
      GITHUB_TOKEN: "ghu_e2eToken0123456789abcdefABCDEF",
      COPILOT_GITHUB_TOKEN: "ghu_e2eOther0123456789abcdefABCDEF",
      OPENAI_API_KEY: "sk-e2e0123456789abcdef",
    });
    expect(JSON.parse(both.stdout)).toEqual([
      { provider: "copilot", source: "env:COPILOT_GITHUB_TOKEN" },
      { provider: "openai", source: "env:OPENAI_API_KEY" },
      { provider: "ollama", source: "none" },
    ]);
    expect(`${github.stdout}${github.stderr}${both.stdout}${both.stderr}`).not.toContain("e2e");
  });

  it("says how to sign in when nothing is set", async () => {
    const outcome = await xzatoma(["auth", "status", "openai"]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe(
      "openai: not signed in (set OPENAI_API_KEY, or run 'xzatoma auth login openai')\n",
    );
  });

  it("refuses to sign in without a keyring, saying how to keep the key instead", async () => {
    const outcome = await xzatoma(["auth", "login", "openai"]);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe("");
    expect(outcome.stderr).not.toContain("signed in");
    expect(outcome.stderr).not.toContain("memory");
    const [error] = outcome.stderr.split("\n");
    expect(error).toMatch(
      /^error \[CREDENTIAL_STORE_UNAVAILABLE\]: The system keyring is not available \(.+\), so the openai credential was not stored\. Set OPENAI_API_KEY in the environment instead\.$/,
    );
    expect(outcome.stderr).toMatch(/^hint: .*keyring/m);
    expectNoStack(outcome.stderr);
  });
});
