/**
 * A scripted server that speaks GitHub's and GitHub Copilot's protocols on 127.0.0.1, for
 * tests and benchmarks of the Copilot provider. Real HTTP on one port:
 *
 * - `POST /login/device/code` and `POST /login/oauth/access_token`: the OAuth device flow,
 *   answering `authorization_pending`, `slow_down`, ... in a scripted order, then a token.
 * - `GET /copilot_internal/v2/token`: the token exchange, with `expires_at`, `refresh_in`
 *   and `endpoints.api` pointing back at this server. Tokens can be made short-lived.
 * - `GET /models`: the recorded listing of `fixtures/copilot-models.json`.
 * - `POST /chat/completions`: SSE as OpenAI's (see `openai-server.ts`).
 * - `POST /responses`: the Responses API event stream (`response.output_text.delta`,
 *   `response.output_item.done` with a `function_call`, `response.completed` with usage).
 *
 * Like Copilot it refuses expired or unknown tokens (401), a request without
 * `Editor-Version` (400), and a model on an endpoint its `supported_endpoints` lacks (400).
 * Every request is recorded with its headers.
 *
 * Run it alone (Node >= 22.18 runs TypeScript directly):
 *   node tools/scripted-servers/copilot-server.ts --scenario weather [--port 0]
 * It prints `{"url": "http://127.0.0.1:PORT", ...}` on stdout once listening.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import {
  chatCompletionChunks,
  chatViewOf,
  headersOf,
  parseBody,
  readBody,
  responsesEvents,
  responsesViewOf,
  SCENARIOS,
  sendJson,
  sendStatusFault,
  writeSse,
  type ChatScenario,
  type Fault,
  type OpenAIChatRequest,
  type RecordedRequest,
  type ResponsesRequest,
  type ScriptedReply,
} from "./openai-server.ts";
import { closeServer, listenOnLoopback, runStandalone } from "./http.ts";

export { SCENARIOS, withFaults, type ChatScenario, type Fault } from "./openai-server.ts";

/** The recorded `/models` listing (the bare `data` array). */
export const COPILOT_MODELS: unknown[] = JSON.parse(
  readFileSync(new URL("./fixtures/copilot-models.json", import.meta.url), "utf8"),
) as unknown[];

/** What the token endpoint answers during the device flow, before it hands out the token. */
export type DeviceFlowAnswer =
  "authorization_pending" | "slow_down" | "expired_token" | "access_denied";

/** Options of {@link startScriptedCopilot}. */
export interface ScriptedCopilotOptions {
  /** Decides the replies of `/chat/completions` and `/responses` alike. */
  scenario: ChatScenario;
  port?: number;
  /** The GitHub token the device flow hands out and the exchange accepts. */
  githubToken?: string;
  /** Answers of the device-flow token endpoint before success, in order. */
  deviceFlow?: DeviceFlowAnswer[];
  /** The polling interval the device-code answer asks for, in seconds. Default 5. */
  deviceInterval?: number;
  /** Lifetime of a Copilot token, in seconds. Default 1800. */
  tokenLifetimeSeconds?: number;
  /** `refresh_in` of the exchange answer, in seconds. Default `tokenLifetimeSeconds - 300` (at least 1). */
  refreshInSeconds?: number;
  /** HTTP statuses of successive exchanges (undefined: success), e.g. `[503]`. */
  exchangeStatus?: (number | undefined)[];
  /** The server's clock, in ms since the epoch. Default `Date.now`. */
  now?: () => number;
  /** The `/models` listing. Default {@link COPILOT_MODELS}. */
  models?: unknown[];
  /** Error bodies repeat the credentials received, to test that clients redact them. */
  echoCredentials?: boolean;
}

/** A running scripted Copilot server. */
export interface ScriptedCopilot {
  /** The origin, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Every URL option of the Copilot provider, pointing here. */
  readonly urls: {
    readonly deviceCodeUrl: string;
    readonly accessTokenUrl: string;
    readonly tokenUrl: string;
    readonly apiBaseUrl: string;
  };
  /** Every request received, in order, with headers (lower-case names) and parsed bodies. */
  readonly requests: RecordedRequest[];
  /** The Copilot tokens issued, in order. */
  readonly issuedTokens: string[];
  close(): Promise<void>;
}

function endpointsOf(models: unknown[], id: string): string[] | undefined {
  const model = models.find((entry) => (entry as { id?: unknown }).id === id) as
    { supported_endpoints?: unknown } | undefined;
  const endpoints = model?.supported_endpoints;
  return Array.isArray(endpoints) ? (endpoints as string[]) : undefined;
}

/** Starts a scripted GitHub + Copilot server on 127.0.0.1. */
export async function startScriptedCopilot(
  options: ScriptedCopilotOptions,
): Promise<ScriptedCopilot> {
  const requests: RecordedRequest[] = [];
  const issuedTokens: string[] = [];
  const expiries = new Map<string, number>();
  const now = options.now ?? Date.now;
  const githubToken = options.githubToken ?? "ghu_scriptedGithubToken0123456789abcd";
  const lifetime = options.tokenLifetimeSeconds ?? 1800;
  const refreshIn = options.refreshInSeconds ?? Math.max(1, lifetime - 300);
  const models = options.models ?? COPILOT_MODELS;
  const deviceFlow = options.deviceFlow ?? [];
  let polls = 0;
  let exchanges = 0;
  let chats = 0;
  let interval = options.deviceInterval ?? 5;
  let origin = "";

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
      else response.end();
    });
  });

  const echo = (headers: Record<string, string>) =>
    options.echoCredentials ? ` (received '${headers["authorization"] ?? "nothing"}')` : "";

  function copilotAuthFailure(headers: Record<string, string>): string | undefined {
    const match = /^Bearer (.+)$/.exec(headers["authorization"] ?? "");
    const token = match?.[1];
    const expiry = token === undefined ? undefined : expiries.get(token);
    if (expiry === undefined) return `unauthorized: unknown token${echo(headers)}`;
    if (expiry <= now()) return `unauthorized: token expired${echo(headers)}`;
    return undefined;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const headers = headersOf(request);
    const record: RecordedRequest = {
      method: request.method ?? "GET",
      path: url.pathname,
      headers,
      body: parseBody(await readBody(request), headers["content-type"]),
      time: performance.timeOrigin + performance.now(),
    };
    requests.push(record);
    response.on("finish", () => (record.status = response.statusCode));
    const method = request.method ?? "GET";
    const path = url.pathname;

    if (method === "POST" && path === "/login/device/code") {
      const clientId = (record.body as { client_id?: unknown } | undefined)?.client_id;
      if (typeof clientId !== "string" || clientId === "")
        return sendJson(response, 400, { error: "unauthorized_client" });
      return sendJson(response, 200, {
        device_code: "dc_scripted_0123456789",
        user_code: "WDJB-MJHT",
        verification_uri: "https://github.com/login/device",
        expires_in: 900,
        interval,
      });
    }
    if (method === "POST" && path === "/login/oauth/access_token") {
      const answer = deviceFlow[polls];
      polls += 1;
      if (answer === "slow_down") {
        interval += 5;
        return sendJson(response, 200, {
          error: "slow_down",
          error_description: "Too many requests have been made in the same timeframe.",
          interval,
        });
      }
      if (answer) return sendJson(response, 200, { error: answer, error_description: answer });
      return sendJson(response, 200, {
        access_token: githubToken,
        token_type: "bearer",
        scope: "read:user",
      });
    }
    if (method === "GET" && path === "/copilot_internal/v2/token") {
      const status = options.exchangeStatus?.[exchanges];
      exchanges += 1;
      const authorization = headers["authorization"] ?? "";
      if (authorization !== `token ${githubToken}` && authorization !== `Bearer ${githubToken}`) {
        return sendJson(response, 401, {
          message: `Bad credentials${echo(headers)}`,
          documentation_url: "https://docs.github.com/rest",
        });
      }
      if (status !== undefined) {
        return sendJson(response, status, {
          message: status === 403 ? "Resource not accessible by integration" : "Server Error",
        });
      }
      const expiresAt = Math.floor(now() / 1000) + lifetime;
      const token = `tid=scripted-${issuedTokens.length + 1};exp=${expiresAt};sku=copilot_for_individuals;proxy-ep=proxy.individual.githubcopilot.com;8:${Math.random().toString(16).slice(2)}`;
      issuedTokens.push(token);
      expiries.set(token, expiresAt * 1000);
      return sendJson(response, 200, {
        token,
        expires_at: expiresAt,
        refresh_in: refreshIn,
        endpoints: {
          api: origin,
          proxy: origin,
          "origin-tracker": origin,
          telemetry: origin,
        },
        sku: "copilot_for_individuals",
        individual: true,
        chat_enabled: true,
        tracking_id: "scripted",
      });
    }

    const api =
      (method === "GET" && path === "/models") ||
      (method === "POST" && (path === "/chat/completions" || path === "/responses"));
    if (!api) {
      return sendJson(response, 404, { message: "Not Found", path });
    }
    const failure = copilotAuthFailure(headers);
    if (failure)
      return sendJson(response, 401, { error: { message: failure, code: "unauthorized" } });
    if (!headers["editor-version"]) {
      return sendJson(response, 400, {
        error: { message: "bad request: missing Editor-Version header for IDE auth" },
      });
    }
    if (path === "/models") return sendJson(response, 200, { data: models, object: "list" });

    const body = record.body as { model?: unknown };
    const model = typeof body?.model === "string" ? body.model : "";
    const endpoints = endpointsOf(models, model);
    if (endpoints && endpoints.length > 0 && !endpoints.includes(path)) {
      return sendJson(response, 400, {
        error: {
          message: `model ${model} is not accessible via the ${path} endpoint`,
          code: "unsupported_api_for_model",
        },
      });
    }
    const index = chats;
    chats += 1;
    if (path === "/chat/completions") {
      const chat = record.body as OpenAIChatRequest;
      const reply = options.scenario(chatViewOf(chat), index);
      return answer(response, reply, () => chatCompletionChunks(chat, reply), false);
    }
    const responses = record.body as ResponsesRequest;
    const reply = options.scenario(responsesViewOf(responses), index);
    return answer(response, reply, () => responsesEvents(responses, reply), true);
  }

  async function answer(
    response: ServerResponse,
    reply: ScriptedReply,
    events: () => Record<string, unknown>[],
    named: boolean,
  ): Promise<void> {
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply.fault?.kind === "status") return sendStatusFault(response, reply.fault);
    const fault: Fault | undefined = reply.fault;
    return writeSse(response, events(), {
      ...(fault ? { fault } : {}),
      named,
      done: !named,
    });
  }

  origin = await listenOnLoopback(server, options.port);
  return {
    url: origin,
    urls: {
      deviceCodeUrl: `${origin}/login/device/code`,
      accessTokenUrl: `${origin}/login/oauth/access_token`,
      tokenUrl: `${origin}/copilot_internal/v2/token`,
      apiBaseUrl: origin,
    },
    requests,
    issuedTokens,
    close: () => closeServer(server),
  };
}

// Standalone: node tools/scripted-servers/copilot-server.ts --scenario NAME [--port N]
if (import.meta.main) {
  await runStandalone({
    scenarios: SCENARIOS,
    start: (scenario, port) => startScriptedCopilot({ scenario, port }),
    describe: (server) => ({ url: server.url, ...server.urls }),
  });
}
