import { createServer } from "node:net";
import { Agent } from "@xzatoma/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  SCENARIOS,
  startScriptedOllama,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { createOllamaModel } from "./ollama.js";
import { normalizeOllamaHost, resolveOllamaHost } from "./ollama-host.js";

let server: ScriptedOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe("Ollama host resolution", () => {
  it("takes the option, then OLLAMA_HOST, then the default, normalised", () => {
    expect(resolveOllamaHost("http://a:1", { OLLAMA_HOST: "b:2" })).toBe("http://a:1");
    expect(resolveOllamaHost(undefined, { OLLAMA_HOST: "b:2" })).toBe("http://b:2");
    expect(resolveOllamaHost(undefined, {})).toBe("http://localhost:11434");
    expect(normalizeOllamaHost("0.0.0.0:11434")).toBe("http://127.0.0.1:11434");
    expect(normalizeOllamaHost("https://gpu.example/ollama/api/")).toBe(
      "https://gpu.example/ollama",
    );
  });
});

describe("Ollama model against the scripted server", () => {
  it("streams an answer with usage over /api/chat", async () => {
    server = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
    const agent = new Agent({
      model: createOllamaModel({ host: server.url, model: "llama3.2:3b" }),
    });
    const result = await agent.run("hello there");
    expect(result).toMatchObject({ stopReason: "completed", text: "You said: hello there" });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(server.requests[0]).toMatchObject({ model: "llama3.2:3b", stream: true });
  });

  it("sends through a fetch given as an option, streaming included", async () => {
    server = await startScriptedOllama({ scenario: SCENARIOS["echo"]! });
    const sent: string[] = [];
    const counting: typeof fetch = (input, init) => {
      sent.push(new URL(String(input)).pathname);
      return fetch(input, init);
    };
    const result = await new Agent({
      model: createOllamaModel({ host: server.url, fetch: counting }),
    }).run("hello there");
    expect(result).toMatchObject({ stopReason: "completed", text: "You said: hello there" });
    expect(sent).toEqual(["/api/show", "/api/chat"]);
  });

  it("says clearly when nothing listens at the host", async () => {
    const host = `http://127.0.0.1:${await unusedPort()}`;
    const result = await new Agent({ model: createOllamaModel({ host }) }).run("hi");
    expect(result.stopReason).toBe("error");
    expect(result.error?.code).toBe("PROVIDER_UNAVAILABLE");
    expect(result.error?.message).toBe(
      `Cannot reach Ollama at ${host} (ECONNREFUSED). Gave up after 3 attempts.`,
    );
  });

  it("explains a missing model and a model without tool support", async () => {
    server = await startScriptedOllama({
      scenario: (request) =>
        request.model === "ghost"
          ? { error: "model 'ghost' not found", status: 404 }
          : {
              error: `registry.ollama.ai/library/${request.model} does not support tools`,
              status: 400,
            },
    });
    const missing = await new Agent({
      model: createOllamaModel({ host: server.url, model: "ghost" }),
    }).run("hi");
    expect(missing.error).toMatchObject({
      code: "MODEL_NOT_FOUND",
      message: "Ollama has no model 'ghost'. Pull it with 'ollama pull ghost', or choose another.",
    });
    const toolless = await new Agent({
      model: createOllamaModel({ host: server.url, model: "gemma:2b" }),
    }).run("hi");
    expect(toolless.error?.message).toContain("cannot call tools");
  });

  it("turns an error line inside a 200 stream into a provider error", async () => {
    server = await startScriptedOllama({ scenario: () => ({ error: "out of memory" }) });
    const result = await new Agent({ model: createOllamaModel({ host: server.url }) }).run("hi");
    expect(result.stopReason).toBe("error");
    expect(result.error).toEqual({
      code: "PROVIDER_ERROR",
      message: "Ollama reported an error: out of memory",
    });
  });
});
