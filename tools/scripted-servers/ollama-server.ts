/**
 * A scripted server that speaks the Ollama HTTP protocol on 127.0.0.1, for tests,
 * benchmarks and the packaging check. Real HTTP, real `/api/chat` NDJSON streaming with
 * tool calls as JSON objects, plus `/api/tags`, `/api/show` and `/api/version`.
 *
 * A scenario decides each `/api/chat` reply from the request, so runs are deterministic.
 *
 * Run it alone (Node >= 22.18 runs TypeScript directly):
 *   node tools/scripted-servers/ollama-server.ts --scenario two-tools [--port 0]
 * It prints `{"url": "http://127.0.0.1:PORT"}` on stdout once listening.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { closeServer, listenOnLoopback, readBody, runStandalone, sendJson } from "./http.ts";

/** A chat message as Ollama receives it. */
export interface OllamaMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  tool_calls?: { id?: string; function: { name: string; arguments: Record<string, unknown> } }[];
  tool_call_id?: string;
  tool_name?: string;
}

/** The body of `POST /api/chat`. */
export interface OllamaChatRequest {
  model: string;
  messages: OllamaMessage[];
  tools?: {
    type: "function";
    function: { name: string; description?: string; parameters: unknown };
  }[];
  stream?: boolean;
  options?: Record<string, unknown>;
}

/** One scripted reply to `/api/chat`. */
export interface ScriptedTurn {
  /** Text of the answer, streamed word by word. */
  content?: string;
  /** Tool calls, sent whole in one chunk as Ollama does. */
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  /** Sends `{"error": ...}`: with `status` as an HTTP error, else as a line inside a 200 stream. */
  error?: string;
  status?: number;
  /** Waits this long before answering. */
  delayMs?: number;
  /** Waits this long between streamed chunks (a slow model). */
  chunkDelayMs?: number;
}

/** Decides the reply to the `index`-th chat request (0-based). */
export type Scenario = (request: OllamaChatRequest, index: number) => ScriptedTurn;

/** A running scripted server. */
export interface ScriptedOllama {
  /** Base URL without `/api`, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Every chat request received, in order. */
  readonly requests: OllamaChatRequest[];
  /** `performance.timeOrigin + performance.now()` of each chat request's arrival. */
  readonly requestTimes: number[];
  close(): Promise<void>;
}

const MODEL = "llama3.2:latest";

function lastUserText(request: OllamaChatRequest): string {
  return request.messages.findLast((message) => message.role === "user")?.content ?? "";
}

function lastToolText(request: OllamaChatRequest): string {
  return request.messages.findLast((message) => message.role === "tool")?.content ?? "";
}

/** The scenarios the standalone server offers by name. */
export const SCENARIOS: Record<string, Scenario> = {
  /** Answers with the user's words. */
  echo: (request) => ({ content: `You said: ${lastUserText(request)}` }),
  /** Lists the workspace, reads README.md, then answers with what it found. */
  "two-tools": (request, index) => {
    const toolTurns = request.messages.filter((message) => message.role === "tool").length;
    if (toolTurns === 0)
      return { toolCalls: [{ name: "list_directory", arguments: { path: "." } }] };
    if (toolTurns === 1)
      return { toolCalls: [{ name: "read_file", arguments: { path: "README.md" } }] };
    const firstLine = lastToolText(request).split("\n")[0] ?? "";
    return { content: `README.md begins with: ${firstLine} (after ${index} tool calls)` };
  },
  /**
   * Never gives a final answer. Each call differs (a longer pattern that matches the same
   * names), so the agent's loop detection does not end it: only the limits do.
   */
  forever: (_request, index) => ({
    toolCalls: [
      { name: "list_directory", arguments: { path: ".", pattern: "*".repeat(index + 1) } },
    ],
  }),
  /**
   * Calls list_directory until the conversation holds N tool results, N read from a
   * `turns:N` in the user's message (default 20), then answers. Each step says a word, as
   * models do, and asks for a different pattern that lists the same names, so the loop
   * detection (the same call repeated) does not end it.
   */
  "tool-loop": (request) => {
    const wanted = Number(/turns:(\d+)/.exec(lastUserText(request))?.[1] ?? "20");
    const done = request.messages.filter((message) => message.role === "tool").length;
    if (done < wanted) {
      return {
        content: `Step ${done + 1}.`,
        toolCalls: [
          { name: "list_directory", arguments: { path: ".", pattern: "*".repeat(done + 1) } },
        ],
      };
    }
    return { content: `Finished after ${done} tool calls.` };
  },
  /**
   * Runs `ls` in the terminal until the conversation holds N tool results, N read from a
   * `commands:N` in the user's message (default 5), then answers. Each command adds one
   * more `-1` (the same listing), so the loop detection does not end it.
   */
  "shell-loop": (request) => {
    const wanted = Number(/commands:(\d+)/.exec(lastUserText(request))?.[1] ?? "5");
    const done = request.messages.filter((message) => message.role === "tool").length;
    if (done < wanted) {
      return {
        content: `Command ${done + 1}.`,
        toolCalls: [{ name: "terminal", arguments: { command: `ls${" -1".repeat(done)}` } }],
      };
    }
    return { content: `Finished after ${done} commands.` };
  },
};

function promptTokens(request: OllamaChatRequest): number {
  return Math.ceil(JSON.stringify(request.messages).length / 4);
}

function chatChunks(request: OllamaChatRequest, turn: ScriptedTurn): object[] {
  const createdAt = new Date().toISOString();
  const base = { model: request.model, created_at: createdAt };
  const chunks: object[] = [];
  const words = (turn.content ?? "").split(/(?<= )/).filter((word) => word !== "");
  for (const word of words)
    chunks.push({ ...base, message: { role: "assistant", content: word }, done: false });
  if (turn.toolCalls && turn.toolCalls.length > 0) {
    chunks.push({
      ...base,
      message: {
        role: "assistant",
        content: "",
        tool_calls: turn.toolCalls.map((call, index) => ({
          function: { index, name: call.name, arguments: call.arguments },
        })),
      },
      done: false,
    });
  }
  const evalCount = Math.max(
    1,
    Math.ceil((turn.content ?? JSON.stringify(turn.toolCalls ?? [])).length / 4),
  );
  chunks.push({
    ...base,
    message: { role: "assistant", content: "" },
    done: true,
    done_reason: "stop",
    total_duration: 1_000_000,
    load_duration: 100_000,
    prompt_eval_count: promptTokens(request),
    prompt_eval_duration: 200_000,
    eval_count: evalCount,
    eval_duration: 500_000,
  });
  return chunks;
}

/** Starts a scripted Ollama server on 127.0.0.1 (an ephemeral port unless `port` is given). */
export async function startScriptedOllama(options: {
  scenario: Scenario;
  port?: number;
  /** The trained context length `/api/show` reports. Default 131072. */
  contextLength?: number;
  /** The model names `/api/tags` lists (a server's names are untrusted text). Default `llama3.2:latest`. */
  models?: readonly string[];
}): Promise<ScriptedOllama> {
  const requests: OllamaChatRequest[] = [];
  const requestTimes: number[] = [];
  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: String(error) });
      else response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method === "GET" && url.pathname === "/api/version")
      return sendJson(response, 200, { version: "0.11.4" });
    if (request.method === "GET" && url.pathname === "/api/tags") {
      return sendJson(response, 200, {
        models: (options.models ?? [MODEL]).map((name) => ({
          name,
          model: name,
          modified_at: "2026-01-01T00:00:00Z",
          size: 2019393189,
          digest: "a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72",
          details: {
            format: "gguf",
            family: "llama",
            families: ["llama"],
            parameter_size: "3.2B",
            quantization_level: "Q4_K_M",
          },
        })),
      });
    }
    if (request.method === "POST" && url.pathname === "/api/show") {
      const shown = JSON.parse((await readBody(request)) || "{}") as { model?: string };
      const toolless = (shown.model ?? "").includes("notools");
      return sendJson(response, 200, {
        template: "{{ if .Tools }}tools{{ end }}",
        details: {
          format: "gguf",
          family: "llama",
          parameter_size: "3.2B",
          quantization_level: "Q4_K_M",
        },
        model_info: {
          "general.architecture": "llama",
          "llama.context_length": options.contextLength ?? 131072,
        },
        capabilities: toolless ? ["completion"] : ["completion", "tools"],
      });
    }
    if (request.method === "POST" && url.pathname === "/api/chat") {
      requestTimes.push(performance.timeOrigin + performance.now());
      const body = JSON.parse(await readBody(request)) as OllamaChatRequest;
      const index = requests.length;
      requests.push(body);
      const turn = options.scenario(body, index);
      if (turn.delayMs) await new Promise((resolve) => setTimeout(resolve, turn.delayMs));
      if (turn.error && turn.status) return sendJson(response, turn.status, { error: turn.error });
      if (body.stream === false) {
        const chunks = chatChunks(body, turn);
        const content = turn.content ?? "";
        const final = chunks.at(-1) as Record<string, unknown>;
        const toolChunk = chunks.find(
          (chunk) => "tool_calls" in ((chunk as { message: object }).message ?? {}),
        );
        return sendJson(response, 200, {
          ...final,
          message: {
            role: "assistant",
            content,
            ...(toolChunk
              ? {
                  tool_calls: (toolChunk as { message: { tool_calls: unknown } }).message
                    .tool_calls,
                }
              : {}),
          },
        });
      }
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      if (turn.error) {
        response.end(`${JSON.stringify({ error: turn.error })}\n`);
        return;
      }
      for (const chunk of chatChunks(body, turn)) {
        if (response.destroyed) return;
        response.write(`${JSON.stringify(chunk)}\n`);
        if (turn.chunkDelayMs)
          await new Promise((resolve) => setTimeout(resolve, turn.chunkDelayMs));
      }
      response.end();
      return;
    }
    sendJson(response, 404, {
      error: `404 page not found: ${request.method ?? "?"} ${url.pathname}`,
    });
  }

  const url = await listenOnLoopback(server, options.port);
  return { url, requests, requestTimes, close: () => closeServer(server) };
}

// Standalone: node tools/scripted-servers/ollama-server.ts --scenario NAME [--port N]
if (import.meta.main) {
  await runStandalone({
    scenarios: SCENARIOS,
    start: (scenario, port) => startScriptedOllama({ scenario, port }),
    describe: (server) => ({ url: server.url }),
  });
}
