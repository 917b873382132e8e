// Provider overhead per request: the time of a `doStream` round trip through a provider
// (request built, sent, SSE/NDJSON parsed into stream parts, retries and error wrappers in
// place) minus the time of the same request made with plain `fetch` (body read as text),
// against the scripted servers on 127.0.0.1. Median over 200 interleaved pairs, for
// Ollama, OpenAI-compatible and Copilot. Target: under 3 ms.
//
//   node bench/providers.ts
//
// The providers come from the built package (`packages/providers/dist`); set
// XZATOMA_PROVIDERS_MODULE to another built module (a path or URL) to measure that instead.
import { pathToFileURL } from "node:url";
import { startScriptedCopilot } from "../tools/scripted-servers/copilot-server.ts";
import {
  SCENARIOS as OLLAMA_SCENARIOS,
  startScriptedOllama,
} from "../tools/scripted-servers/ollama-server.ts";
import { SCENARIOS, startScriptedOpenAI } from "../tools/scripted-servers/openai-server.ts";
import { median } from "./measure.ts";

const WARMUP = 20;
const SAMPLES = 200;
const TARGET_MS = 3;

interface StreamingModel {
  doStream(options: { prompt: unknown[] }): PromiseLike<{ stream: ReadableStream<unknown> }>;
}

interface ProvidersModule {
  createOllamaModel(options: { host: string; model?: string }): StreamingModel;
  createOpenAIModel(options: {
    model: string;
    baseURL: string;
    env: Record<string, string>;
  }): StreamingModel;
  createCopilotModel(options: {
    model: string;
    getGithubToken: () => Promise<string | undefined>;
    tokenUrl: string;
    env: Record<string, string>;
  }): StreamingModel;
}

const override = process.env["XZATOMA_PROVIDERS_MODULE"];
const moduleUrl = override
  ? override.startsWith("file:")
    ? override
    : pathToFileURL(override).href
  : new URL("../packages/providers/dist/index.js", import.meta.url).href;
const providers = (await import(moduleUrl)) as ProvidersModule;
for (const name of ["createOllamaModel", "createOpenAIModel", "createCopilotModel"] as const) {
  if (typeof providers[name] !== "function") {
    throw new Error(
      `${moduleUrl} does not export ${name}: build @xzatoma/providers with the OpenAI and Copilot exports.`,
    );
  }
}

const PROMPT = [{ role: "user", content: [{ type: "text", text: "hello there" }] }];

async function throughProvider(model: StreamingModel): Promise<number> {
  const started = performance.now();
  const { stream } = await model.doStream({ prompt: PROMPT });
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if ((value as { type?: string }).type === "error") throw new Error("the stream failed");
  }
  return performance.now() - started;
}

interface PlainRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

async function throughFetch(request: PlainRequest): Promise<number> {
  const started = performance.now();
  const response = await fetch(request.url, {
    method: "POST",
    headers: request.headers,
    body: request.body,
  });
  await response.text();
  if (!response.ok) throw new Error(`plain fetch answered HTTP ${response.status}`);
  return performance.now() - started;
}

/** Replays the headers a provider sent, minus those fetch sets itself. */
function replayHeaders(recorded: Record<string, string>): Record<string, string> {
  const skip = new Set(["host", "content-length", "connection", "accept-encoding"]);
  return Object.fromEntries(Object.entries(recorded).filter(([name]) => !skip.has(name)));
}

interface Result {
  name: string;
  provider: number;
  fetch: number;
  overhead: number;
  pairedOverhead: number;
}

async function measure(
  name: string,
  model: StreamingModel,
  plain: () => PlainRequest,
): Promise<Result> {
  for (let index = 0; index < WARMUP; index += 1) await throughProvider(model);
  const request = plain();
  for (let index = 0; index < WARMUP; index += 1) await throughFetch(request);
  const viaProvider: number[] = [];
  const viaFetch: number[] = [];
  const differences: number[] = [];
  for (let index = 0; index < SAMPLES; index += 1) {
    // Alternate the order so neither side always runs on a warmer connection.
    const first = index % 2 === 0;
    const a = first ? await throughProvider(model) : await throughFetch(request);
    const b = first ? await throughFetch(request) : await throughProvider(model);
    const [providerMs, fetchMs] = first ? [a, b] : [b, a];
    viaProvider.push(providerMs);
    viaFetch.push(fetchMs);
    differences.push(providerMs - fetchMs);
  }
  return {
    name,
    provider: median(viaProvider),
    fetch: median(viaFetch),
    overhead: median(viaProvider) - median(viaFetch),
    pairedOverhead: median(differences),
  };
}

const echo = SCENARIOS["echo"]!;
const results: Result[] = [];

const ollama = await startScriptedOllama({ scenario: OLLAMA_SCENARIOS["echo"]! });
try {
  const model = providers.createOllamaModel({ host: ollama.url, model: "llama3.2:latest" });
  results.push(
    await measure("Ollama", model, () => ({
      url: `${ollama.url}/api/chat`,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ollama.requests.at(-1)),
    })),
  );
} finally {
  await ollama.close();
}

const openai = await startScriptedOpenAI({ scenario: echo });
try {
  const model = providers.createOpenAIModel({ model: "qwen2.5-7b", baseURL: openai.url, env: {} });
  results.push(
    await measure("OpenAI-compatible", model, () => {
      const last = openai.requests.at(-1)!;
      return {
        url: `${openai.url}/chat/completions`,
        headers: replayHeaders(last.headers),
        body: JSON.stringify(last.body),
      };
    }),
  );
} finally {
  await openai.close();
}

const copilot = await startScriptedCopilot({ scenario: echo });
try {
  const model = providers.createCopilotModel({
    model: "claude-sonnet-4",
    getGithubToken: async () => "ghu_scriptedGithubToken0123456789abcd",
    tokenUrl: copilot.urls.tokenUrl,
    env: {},
  });
  results.push(
    await measure("Copilot (/chat/completions)", model, () => {
      const last = copilot.requests.findLast((request) => request.path === "/chat/completions")!;
      return {
        url: `${copilot.url}/chat/completions`,
        headers: replayHeaders(last.headers),
        body: JSON.stringify(last.body),
      };
    }),
  );
  const responses = providers.createCopilotModel({
    model: "gpt-5.1-codex",
    getGithubToken: async () => "ghu_scriptedGithubToken0123456789abcd",
    tokenUrl: copilot.urls.tokenUrl,
    env: {},
  });
  results.push(
    await measure("Copilot (/responses)", responses, () => {
      const last = copilot.requests.findLast((request) => request.path === "/responses")!;
      return {
        url: `${copilot.url}/responses`,
        headers: replayHeaders(last.headers),
        body: JSON.stringify(last.body),
      };
    }),
  );
} finally {
  await copilot.close();
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
console.log(
  `provider overhead per request, median of ${SAMPLES} interleaved pairs (target ${TARGET_MS} ms)`,
);
for (const result of results) {
  const verdict = result.pairedOverhead < TARGET_MS ? "ok" : "OVER TARGET";
  console.log(
    `  ${result.name.padEnd(28)} overhead ${ms(result.pairedOverhead).padStart(9)}  ` +
      `(provider ${ms(result.provider)}, plain fetch ${ms(result.fetch)}, ` +
      `difference of medians ${ms(result.overhead)})  ${verdict}`,
  );
}
