// The conversation fits the window the provider really uses. Ollama is asked for a 4096-token
// context (`provider.ollama.num_ctx`), so every request `run` sends (messages and tool
// definitions, counted with the estimator the conversation uses) must fit 4096 tokens while
// the model reads six files of about 1250 tokens each; and `/model` in chat names 4096.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { MESSAGE_OVERHEAD_TOKENS, estimateTextTokens as tokensOf } from "@xzatoma/conversation";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli.test-support.js";

const FILES = 6;
const WINDOW = 4096;

/** Reads big-1.txt to big-6.txt, one per request (pruning hides the earlier ones), then answers. */
function readEveryFile(_request: OllamaChatRequest, index: number) {
  if (index < FILES)
    return { toolCalls: [{ name: "read_file", arguments: { path: `big-${index + 1}.txt` } }] };
  return { content: `Read ${FILES} files.` };
}

/** What a request costs, counted as the conversation counts it. */
function requestTokens(request: OllamaChatRequest): number {
  let tokens = tokensOf(JSON.stringify(request.tools ?? []));
  for (const message of request.messages) {
    tokens += MESSAGE_OVERHEAD_TOKENS + tokensOf(message.content);
    for (const call of message.tool_calls ?? [])
      tokens += tokensOf(call.function.name) + tokensOf(JSON.stringify(call.function.arguments));
  }
  return tokens;
}

let base: string;
let workspace: string;
/** A model trained on 131072 tokens, run with `provider.ollama.num_ctx: 4096`. */
let configured: ScriptedOllama;
/** A model trained on 4096 tokens, with no num_ctx configured. */
let trained: ScriptedOllama;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-context-window-")));
  workspace = path.join(base, "project");
  await mkdir(workspace);
  for (let index = 1; index <= FILES; index += 1) {
    const line = `File ${index} holds line after line of notes about the project.\n`;
    await writeFile(
      path.join(workspace, `big-${index}.txt`),
      line.repeat(Math.ceil(5000 / line.length)),
    );
  }
  configured = await startScriptedOllama({ scenario: readEveryFile });
  trained = await startScriptedOllama({ scenario: readEveryFile, contextLength: WINDOW });
});

afterAll(async () => {
  await configured?.close();
  await trained?.close();
  await rm(base, { recursive: true, force: true });
});

function env(server: ScriptedOllama): Record<string, string> {
  return {
    PATH: process.env["PATH"] ?? "",
    HOME: path.join(base, "home"),
    OLLAMA_HOST: server.url,
    XZATOMA_PROVIDER: "ollama",
    ...(server === configured ? { XZATOMA_PROVIDER_OLLAMA_NUM_CTX: String(WINDOW) } : {}),
  };
}

describe.each([
  ["configured as num_ctx", () => configured],
  ["the model's trained length", () => trained],
])("a 4096-token Ollama context, %s", (_source, server) => {
  it("is what every request asks for, and no request is larger", async () => {
    const outcome = await runCli(["run", "--json", "Read the six big files."], {
      cwd: workspace,
      env: env(server()),
    });
    expect(outcome.stderr).toBe("");
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('"type":"context-pruned"');
    const requests = server().requests;
    expect(requests).toHaveLength(FILES + 1);
    for (const request of requests) {
      expect(request.options?.["num_ctx"]).toBe(WINDOW);
      expect(requestTokens(request)).toBeLessThanOrEqual(WINDOW);
    }
    // Without pruning the last request would hold every file: more than the window.
    expect(FILES * tokensOf("x".repeat(5000))).toBeGreaterThan(WINDOW);
  });

  it("is the context /model reports", async () => {
    const outcome = await runCli(["chat"], {
      cwd: workspace,
      env: env(server()),
      input: "/model llama3.2:latest\n",
    });
    expect(outcome.stdout).toContain(`Switched to model llama3.2:latest (${WINDOW} token context)`);
  });
});
