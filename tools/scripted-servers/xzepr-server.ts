/**
 * A scripted XZepr server on 127.0.0.1, for tests: the REST API of XZepr's `/api/v1`
 * (events, receivers, groups) and `/health`, kept in memory, with XZepr's response shapes,
 * its validation messages and its framework's refusals (415, 400 and 422 as plain text).
 *
 * It also keeps the envelopes XZepr would publish to Kafka for each creation (`published`),
 * receiver and group system events included, with XZepr's own entity field names
 * (`receiver_type`, `group_type`, `owner_id`, `resource_version`).
 *
 * Knobs for tests: a Bearer token to require, `failNext` (answer the next requests with an
 * error), `hangNext` (never answer them), `addReceiver` (seed without HTTP), and `requests`,
 * every request received, for assertions.
 *
 * Run it alone (Node >= 22.18 runs TypeScript directly):
 *   node tools/scripted-servers/xzepr-server.ts --scenario open|token|flaky [--port 0]
 * It prints `{"url": "http://127.0.0.1:PORT", "token": ...}` on stdout once listening, and
 * a line per request on stderr. docs/how-to/deploy-the-watcher.md ("Try XZepr reporting")
 * shows it with the watcher.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { closeServer, listenOnLoopback, readBody, runStandalone, sendJson } from "./http.ts";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/i;

/** A new ULID: 48 bits of milliseconds, 80 random bits, Crockford base32. */
export function ulid(now = Date.now()): string {
  let time = "";
  let rest = now;
  for (let index = 0; index < 10; index++) {
    time = CROCKFORD[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  let tail = "";
  for (const byte of randomBytes(16)) tail += CROCKFORD[byte % 32];
  return time + tail;
}

/** An event as XZepr's REST API returns it. */
export interface XzeprEventRecord {
  id: string;
  name: string;
  version: string;
  release: string;
  platform_id: string;
  package: string;
  description: string;
  payload: Record<string, unknown>;
  success: boolean;
  event_receiver_id: string;
  created_at: string;
}

/** A receiver as XZepr's REST API returns it. */
export interface XzeprReceiverRecord {
  id: string;
  name: string;
  type: string;
  version: string;
  description: string;
  schema: Record<string, unknown>;
  fingerprint: string;
  created_at: string;
}

/** A group as XZepr's REST API returns it. */
export interface XzeprGroupRecord {
  id: string;
  name: string;
  type: string;
  version: string;
  description: string;
  enabled: boolean;
  event_receiver_ids: string[];
  created_at: string;
  updated_at: string;
}

/** One request the server received. Header names are lowercase. */
export interface RecordedXzeprRequest {
  readonly method: string;
  /** The path without the query, e.g. `/api/v1/receivers`. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The parsed JSON body, the raw text when it is not JSON, `undefined` when empty. */
  readonly body: unknown;
}

/** How to answer a request instead of handling it. */
export interface XzeprFault {
  /** Default 500. */
  readonly status?: number;
  /** Default `{error:"internal_error", message:"Scripted failure"}`; a string is sent as text. */
  readonly body?: unknown;
}

/** A running scripted XZepr. */
export interface ScriptedXzepr {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The Bearer token required, when one is. */
  readonly token: string | undefined;
  readonly requests: RecordedXzeprRequest[];
  readonly events: Map<string, XzeprEventRecord>;
  readonly receivers: Map<string, XzeprReceiverRecord>;
  readonly groups: Map<string, XzeprGroupRecord>;
  /** The envelopes XZepr would have published to Kafka, in order. */
  readonly published: Record<string, unknown>[];
  /** Stores a receiver without a request (for seeding); returns its id. */
  addReceiver(receiver: {
    name: string;
    type: string;
    version?: string;
    description?: string;
    schema?: Record<string, unknown>;
  }): string;
  /** Answers the next `count` requests (any path) with `fault` instead of handling them. */
  failNext(count: number, fault?: XzeprFault): void;
  /** Never answers the next `count` requests (a server that stalls). */
  hangNext(count: number): void;
  close(): Promise<void>;
}

/** Options of {@link startScriptedXzepr}. */
export interface ScriptedXzeprOptions {
  /** When set, `/api/v1/*` requires `Authorization: Bearer <token>` (401 otherwise). */
  readonly token?: string;
  readonly port?: number;
  /** Answers the first `failFirst` requests with 503, as an XZepr that is starting or away would. */
  readonly failFirst?: number;
  /** Called with one line per request answered (`POST /api/v1/events 200`): the standalone server prints them. */
  readonly log?: (line: string) => void;
}

/** The owner XZepr records for everything created here (the scripted server's one user). */
export const SCRIPTED_OWNER_ID = "01K0XZEPR0SCR1PTED0WNER001";

type Json = Record<string, unknown>;

class HttpError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    super(typeof body === "string" ? body : JSON.stringify(body));
    this.status = status;
    this.body = body;
  }
}

const fail = (status: number, error: string, message: string, field?: string): never => {
  throw new HttpError(status, { error, message, ...(field === undefined ? {} : { field }) });
};
const validation = (field: string, message: string): never =>
  fail(400, "validation_error", `Validation error in field '${field}': ${message}`);

/** Axum's `Json` extractor refusing a body that lacks a field or has the wrong type. */
function deserialize(
  body: unknown,
  fields: Record<string, "string" | "boolean" | "object" | "string[]" | "any">,
  optional = false,
): Json {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(
      422,
      "Failed to deserialize the JSON body into the target type: invalid type: expected a map",
    );
  }
  const json = body as Json;
  for (const [name, kind] of Object.entries(fields)) {
    const value = json[name];
    if (value === undefined || (optional && value === null)) {
      if (optional) continue;
      throw new HttpError(
        422,
        `Failed to deserialize the JSON body into the target type: missing field \`${name}\``,
      );
    }
    const ok =
      kind === "any" ||
      (kind === "string[]"
        ? Array.isArray(value) && value.every((entry) => typeof entry === "string")
        : kind === "object"
          ? value !== null
          : typeof value === kind);
    if (!ok) {
      throw new HttpError(
        422,
        `Failed to deserialize the JSON body into the target type: ${name}: invalid type, expected ${kind}`,
      );
    }
  }
  return json;
}

const blank = (value: unknown) => typeof value === "string" && value.trim() === "";
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function fingerprint(name: string, type: string, version: string, schema: unknown): string {
  return createHash("sha256")
    .update(name)
    .update(type)
    .update(version)
    .update(JSON.stringify(schema))
    .digest("hex");
}

function checkId(id: string, what: string): string {
  if (!ULID.test(id)) fail(400, "invalid_id", `Invalid ${what} ID format`);
  return id.toUpperCase();
}

/** Starts a scripted XZepr on 127.0.0.1 (an ephemeral port unless `port` is given). */
export async function startScriptedXzepr(
  options: ScriptedXzeprOptions = {},
): Promise<ScriptedXzepr> {
  const requests: RecordedXzeprRequest[] = [];
  const events = new Map<string, XzeprEventRecord>();
  const receivers = new Map<string, XzeprReceiverRecord>();
  const groups = new Map<string, XzeprGroupRecord>();
  const published: Json[] = [];
  const faults: (XzeprFault | "hang")[] = [];
  for (let index = 0; index < (options.failFirst ?? 0); index++) {
    faults.push({
      status: 503,
      body: { error: "service_unavailable", message: "Scripted outage (failFirst)" },
    });
  }

  function envelope(
    event: XzeprEventRecord,
    extra: { receivers?: Json[]; groups?: Json[] } = {},
  ): Json {
    return {
      success: event.success,
      id: event.id,
      specversion: "1.0.1",
      type: event.name,
      source: `xzepr.event.receiver.${event.event_receiver_id}`,
      api_version: "v1",
      name: event.name,
      version: event.version,
      release: event.release,
      platform_id: event.platform_id,
      package: event.package,
      data: {
        events: [{ ...event, owner_id: SCRIPTED_OWNER_ID, resource_version: 1 }],
        event_receivers: extra.receivers ?? [],
        event_receiver_groups: extra.groups ?? [],
      },
    };
  }

  function systemEvent(
    name: string,
    receiverId: string,
    description: string,
    payload: Json,
  ): XzeprEventRecord {
    return {
      id: ulid(),
      name,
      version: "1.0.0",
      release: "system",
      platform_id: "xzepr",
      package: "xzepr.system",
      description,
      payload,
      success: true,
      event_receiver_id: receiverId,
      created_at: new Date().toISOString(),
    };
  }

  function addReceiver(input: {
    name: string;
    type: string;
    version?: string;
    description?: string;
    schema?: Json;
  }): string {
    const schema = input.schema ?? { type: "object" };
    const version = input.version ?? "1.0.0";
    const receiver: XzeprReceiverRecord = {
      id: ulid(),
      name: input.name,
      type: input.type,
      version,
      description: input.description ?? "",
      schema,
      fingerprint: fingerprint(input.name, input.type, version, schema),
      created_at: new Date().toISOString(),
    };
    receivers.set(receiver.id, receiver);
    return receiver.id;
  }

  function receiverCreated(receiver: XzeprReceiverRecord): void {
    const { type, ...rest } = receiver;
    const event = systemEvent(
      "xzepr.event.receiver.created",
      receiver.id,
      `Event receiver '${receiver.name}' created`,
      {
        receiver_id: receiver.id,
        name: receiver.name,
        type,
        version: receiver.version,
        fingerprint: receiver.fingerprint,
        description: receiver.description,
      },
    );
    const entity = {
      ...rest,
      receiver_type: type,
      owner_id: SCRIPTED_OWNER_ID,
      resource_version: 1,
    };
    published.push(envelope(event, { receivers: [entity] }));
  }

  function groupCreated(group: XzeprGroupRecord): void {
    const { type, ...rest } = group;
    const event = systemEvent(
      "xzepr.event.receiver.group.created",
      group.event_receiver_ids[0] ?? SCRIPTED_OWNER_ID,
      `Event receiver group '${group.name}' created`,
      {
        group_id: group.id,
        name: group.name,
        type,
        version: group.version,
        description: group.description,
        enabled: group.enabled,
        receiver_ids: group.event_receiver_ids,
        receiver_count: group.event_receiver_ids.length,
      },
    );
    const entity = { ...rest, group_type: type, owner_id: SCRIPTED_OWNER_ID, resource_version: 1 };
    published.push(envelope(event, { groups: [entity] }));
  }

  function createEvent(body: unknown): Json {
    const json = deserialize(body, {
      name: "string",
      version: "string",
      release: "string",
      platform_id: "string",
      package: "string",
      description: "string",
      payload: "any",
      success: "boolean",
      event_receiver_id: "string",
    });
    if (blank(json["name"])) validation("name", "Name cannot be empty");
    if (blank(json["version"])) validation("version", "Version cannot be empty");
    if (blank(json["release"])) validation("release", "Release cannot be empty");
    if (blank(json["platform_id"])) validation("platform_id", "Platform ID cannot be empty");
    if (blank(json["package"])) validation("package", "Package cannot be empty");
    if (blank(json["event_receiver_id"]))
      validation("event_receiver_id", "Event receiver ID cannot be empty");
    if (!isObject(json["payload"])) validation("payload", "Payload must be a JSON object");
    const receiverId = String(json["event_receiver_id"]);
    if (!ULID.test(receiverId)) {
      fail(
        400,
        "validation_error",
        "Validation error in field 'event_receiver_id': Invalid event receiver ID format",
        "event_receiver_id",
      );
    }
    if (!receivers.has(receiverId.toUpperCase()))
      fail(404, "event_creation_failed", "Receiver not found");
    const event: XzeprEventRecord = {
      id: ulid(),
      name: String(json["name"]),
      version: String(json["version"]),
      release: String(json["release"]),
      platform_id: String(json["platform_id"]),
      package: String(json["package"]),
      description: String(json["description"]),
      payload: json["payload"] as Json,
      success: json["success"] as boolean,
      event_receiver_id: receiverId.toUpperCase(),
      created_at: new Date().toISOString(),
    };
    events.set(event.id, event);
    published.push(envelope(event));
    return { data: event.id };
  }

  function checkReceiverFields(json: Json): void {
    if (blank(json["name"])) validation("name", "Name cannot be empty");
    if (blank(json["type"])) validation("type", "Type cannot be empty");
    if (blank(json["version"])) validation("version", "Version cannot be empty");
    if (json["schema"] !== undefined && json["schema"] !== null && !isObject(json["schema"]))
      validation("schema", "Schema must be a JSON object");
    if (isObject(json["schema"]) && !Object.hasOwn(json["schema"], "type")) {
      fail(
        400,
        "receiver_creation_failed",
        "Validation error in field 'schema': Schema must contain a 'type' field",
      );
    }
  }

  function createReceiver(body: unknown): Json {
    const json = deserialize(body, {
      name: "string",
      type: "string",
      version: "string",
      description: "string",
      schema: "any",
    });
    if (!isObject(json["schema"])) validation("schema", "Schema must be a JSON object");
    checkReceiverFields(json);
    const id = addReceiver({
      name: String(json["name"]),
      type: String(json["type"]),
      version: String(json["version"]),
      description: String(json["description"]),
      schema: json["schema"] as Json,
    });
    const receiver = receivers.get(id);
    if (receiver !== undefined) receiverCreated(receiver);
    return { data: id };
  }

  function updateReceiver(id: string, body: unknown): void {
    const json = deserialize(
      body,
      { name: "string", type: "string", version: "string", description: "string", schema: "any" },
      true,
    );
    checkReceiverFields(json);
    const receiver = receivers.get(id);
    if (receiver === undefined) return fail(404, "update_failed", "Receiver not found");
    for (const key of ["name", "type", "version", "description"] as const)
      if (typeof json[key] === "string") receiver[key] = json[key];
    if (isObject(json["schema"])) receiver.schema = json["schema"];
    receiver.fingerprint = fingerprint(
      receiver.name,
      receiver.type,
      receiver.version,
      receiver.schema,
    );
  }

  function checkGroupFields(json: Json, creating: boolean): string[] | undefined {
    if (blank(json["name"])) validation("name", "Name cannot be empty");
    if (blank(json["type"])) validation("type", "Type cannot be empty");
    if (blank(json["version"])) validation("version", "Version cannot be empty");
    const ids = json["event_receiver_ids"] as string[] | undefined;
    if (ids === undefined) return undefined;
    if (creating && ids.length === 0)
      validation("event_receiver_ids", "At least one event receiver ID is required");
    for (const entry of ids) {
      if (!ULID.test(entry)) {
        fail(
          400,
          "validation_error",
          `Validation error in field 'event_receiver_ids': Invalid event receiver ID format: ${entry}`,
          "event_receiver_ids",
        );
      }
    }
    return ids.map((entry) => entry.toUpperCase());
  }

  const groupFields = {
    name: "string",
    type: "string",
    version: "string",
    description: "string",
    enabled: "boolean",
    event_receiver_ids: "string[]",
  } as const;

  function createGroup(body: unknown): Json {
    const json = deserialize(body, groupFields);
    const ids = checkGroupFields(json, true) ?? [];
    const now = new Date().toISOString();
    const group: XzeprGroupRecord = {
      id: ulid(),
      name: String(json["name"]),
      type: String(json["type"]),
      version: String(json["version"]),
      description: String(json["description"]),
      enabled: json["enabled"] as boolean,
      event_receiver_ids: ids,
      created_at: now,
      updated_at: now,
    };
    groups.set(group.id, group);
    groupCreated(group);
    return { data: group.id };
  }

  function updateGroup(id: string, body: unknown): void {
    const json = deserialize(body, groupFields, true);
    const ids = checkGroupFields(json, false);
    const group = groups.get(id);
    if (group === undefined) return fail(404, "update_failed", "Group not found");
    for (const key of ["name", "type", "version", "description"] as const)
      if (typeof json[key] === "string") group[key] = json[key];
    if (typeof json["enabled"] === "boolean") group.enabled = json["enabled"];
    if (ids !== undefined) group.event_receiver_ids = ids;
    group.updated_at = new Date().toISOString();
  }

  function listReceivers(query: Record<string, string>): Json {
    const number = (name: string, fallback: number) => {
      const text = query[name];
      if (text === undefined) return fallback;
      if (!/^\d+$/.test(text)) {
        throw new HttpError(
          400,
          `Failed to deserialize query string: ${name}: invalid digit found in string`,
        );
      }
      return Number(text);
    };
    const limit = number("limit", 50);
    const offset = number("offset", 0);
    if (limit === 0 || limit > 1000) validation("limit", "Limit must be between 1 and 1000");
    // Like XZepr, the name/type/version filters are accepted and ignored.
    const all = [...receivers.values()];
    return {
      data: all.slice(offset, offset + limit),
      pagination: { limit, offset, total: all.length, has_more: offset + limit < all.length },
    };
  }

  async function route(
    method: string,
    path: string,
    query: Record<string, string>,
    body: unknown,
  ): Promise<{ status: number; body?: unknown }> {
    const [, api, version, collection, rawId, ...extra] = path.split("/");
    if (api !== "api" || version !== "v1" || extra.length > 0)
      return fail(404, "not_found", `No route for ${method} ${path}`);
    const id = rawId === undefined || rawId === "" ? undefined : decodeURIComponent(rawId);
    if (collection === "events") {
      if (id === undefined && method === "POST") return { status: 200, body: createEvent(body) };
      if (id !== undefined && method === "GET") {
        const event = events.get(checkId(id, "event"));
        return event ? { status: 200, body: event } : fail(404, "not_found", "Event not found");
      }
    }
    if (collection === "receivers") {
      if (id === undefined && method === "POST") return { status: 200, body: createReceiver(body) };
      if (id === undefined && method === "GET") return { status: 200, body: listReceivers(query) };
      if (id !== undefined) {
        const key = checkId(id, "event receiver");
        if (method === "GET") {
          const receiver = receivers.get(key);
          return receiver
            ? { status: 200, body: receiver }
            : fail(404, "not_found", "Event receiver not found");
        }
        if (method === "PUT") {
          updateReceiver(key, body);
          return { status: 204 };
        }
        if (method === "DELETE") {
          if (!receivers.delete(key)) fail(404, "delete_failed", "Receiver not found");
          return { status: 204 };
        }
      }
    }
    if (collection === "groups") {
      if (id === undefined && method === "POST") return { status: 200, body: createGroup(body) };
      if (id !== undefined) {
        const key = checkId(id, "event receiver group");
        if (method === "GET") {
          const group = groups.get(key);
          return group
            ? { status: 200, body: group }
            : fail(404, "not_found", "Event receiver group not found");
        }
        if (method === "PUT") {
          updateGroup(key, body);
          return { status: 204 };
        }
        if (method === "DELETE") {
          if (!groups.delete(key)) fail(404, "delete_failed", "Group not found");
          return { status: 204 };
        }
      }
    }
    return fail(405, "method_not_allowed", `${method} is not allowed on ${path}`);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const method = request.method ?? "GET";
    const text = await readBody(request);
    let body: unknown;
    let bodyError: string | undefined;
    if (text !== "") {
      try {
        body = JSON.parse(text);
      } catch (error) {
        body = text;
        bodyError = (error as Error).message;
      }
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(", ") : value,
      ]),
    );
    const query = Object.fromEntries(url.searchParams);
    requests.push({ method, path: url.pathname, query, headers, body });

    const fault = faults.shift();
    if (fault === "hang") return; // the connection stays open until the client gives up or the server closes
    if (fault !== undefined) {
      const faultBody = fault.body ?? { error: "internal_error", message: "Scripted failure" };
      return send(response, fault.status ?? 500, faultBody);
    }

    if (method === "GET" && url.pathname === "/health") {
      return sendJson(response, 200, {
        status: "healthy",
        service: "xzepr",
        version: "0.1.0",
        components: { database: "healthy" },
      });
    }
    try {
      if (!url.pathname.startsWith("/api/v1/"))
        fail(404, "not_found", `No route for ${method} ${url.pathname}`);
      if (
        options.token !== undefined &&
        request.headers.authorization !== `Bearer ${options.token}`
      ) {
        fail(401, "unauthorized", "Missing or invalid authentication token");
      }
      if (method === "POST" || method === "PUT") {
        const type = request.headers["content-type"] ?? "";
        if (!/^application\/json\b/i.test(type)) {
          throw new HttpError(415, "Expected request with `Content-Type: application/json`");
        }
        if (bodyError !== undefined) {
          throw new HttpError(400, `Failed to parse the request body as JSON: ${bodyError}`);
        }
      }
      const answer = await route(method, url.pathname, query, body);
      if (answer.status === 204) {
        response.writeHead(204);
        response.end();
        return;
      }
      return sendJson(response, answer.status, answer.body);
    } catch (error) {
      if (error instanceof HttpError) return send(response, error.status, error.body);
      throw error;
    }
  }

  function send(response: ServerResponse, status: number, body: unknown): void {
    if (typeof body === "string") {
      response.writeHead(status, {
        "content-type": "text/plain; charset=utf-8",
        "content-length": Buffer.byteLength(body),
      });
      response.end(body);
      return;
    }
    sendJson(response, status, body);
  }

  const server = createServer((request, response) => {
    if (options.log) {
      const log = options.log;
      response.once("finish", () =>
        log(`${request.method ?? "GET"} ${request.url ?? "/"} ${response.statusCode}`),
      );
    }
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, 500, { error: "internal_error", message: String(error) });
      else response.end();
    });
  });
  const url = await listenOnLoopback(server, options.port);
  return {
    url,
    token: options.token,
    requests,
    events,
    receivers,
    groups,
    published,
    addReceiver,
    failNext: (count, fault = {}) => {
      for (let index = 0; index < count; index++) faults.push(fault);
    },
    hangNext: (count) => {
      for (let index = 0; index < count; index++) faults.push("hang");
    },
    close: () => closeServer(server),
  };
}

/**
 * Standalone scenarios: `open` needs no token, `token` requires `Bearer xzepr-dev-token`,
 * `flaky` answers its first 5 requests with 503 (a client that retries gets through).
 */
export const SCENARIOS: Record<string, ScriptedXzeprOptions> = {
  open: {},
  token: { token: "xzepr-dev-token" },
  flaky: { failFirst: 5 },
};

// Standalone: node tools/scripted-servers/xzepr-server.ts --scenario open|token|flaky [--port N]
// Each request answered is a line on stderr; stop it with Ctrl-C (its data is in memory).
if (import.meta.main) {
  await runStandalone({
    scenarios: SCENARIOS,
    start: (scenario, port) =>
      startScriptedXzepr({
        ...scenario,
        port,
        log: (line) => process.stderr.write(`xzepr: ${line}\n`),
      }),
    describe: (server) => ({ url: server.url, token: server.token ?? null }),
  });
}
