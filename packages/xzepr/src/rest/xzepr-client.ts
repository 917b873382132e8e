/**
 * A client for XZepr's REST API: health, events, receivers and groups, plus the watcher's
 * "find my receiver or create it" across every page of receivers.
 */
import type { z } from "zod";
import { XzeprApiError } from "./xzepr-api-error.js";
import {
  createdSchema,
  xzeprApiEventSchema,
  xzeprApiGroupSchema,
  xzeprApiReceiverSchema,
  xzeprErrorBodySchema,
  xzeprHealthSchema,
  xzeprReceiverPageSchema,
  type CreateEvent,
  type CreateGroup,
  type CreateReceiver,
  type UpdateGroup,
  type UpdateReceiver,
  type XzeprApiEvent,
  type XzeprApiGroup,
  type XzeprApiReceiver,
  type XzeprHealth,
  type XzeprReceiverPage,
} from "./xzepr-api-types.js";

/** Options of {@link createXzeprClient}. */
export interface XzeprClientOptions {
  /** Where XZepr listens, e.g. `http://127.0.0.1:8042`; a path prefix is kept. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <token>` when given. Never appears in an error. */
  readonly token?: string;
  /** The `fetch` to use; default the global one. */
  readonly fetch?: typeof fetch;
  /** Longest wait for one call, answer body included. Default 10 000 ms. */
  readonly timeoutMs?: number;
  /**
   * Applied to every string of a request body before it is sent, and to what an error
   * quotes of the server's answer: `redactSecrets` of `@xzatoma/safety`, as XZatoma's
   * watcher passes it (this package depends on no redactor itself). Default: as they are.
   */
  readonly redact?: (text: string) => string;
}

/** Per-call options. */
export interface XzeprCallOptions {
  /** Aborts the call (it then fails with reason `aborted`). */
  readonly signal?: AbortSignal;
}

/** What {@link XzeprClient.listReceivers} asks for. */
export interface ListReceiversQuery {
  /** 1 to 1000; XZepr's default is 50. */
  readonly limit?: number;
  readonly offset?: number;
  /** Sent along, but the XZepr server ignores these filters: match the results yourself. */
  readonly name?: string;
  readonly type?: string;
  readonly version?: string;
}

/** The receiver {@link XzeprClient.findOrCreateReceiver} found or made. */
export interface FoundReceiver {
  readonly id: string;
  /** True when it did not exist and was created by this call. */
  readonly created: boolean;
}

/** XZepr's REST API. Every method throws {@link XzeprApiError} on failure. */
export interface XzeprClient {
  /** `GET /health`. A 503 with a health body is returned (its `status` says `unhealthy`). */
  health(options?: XzeprCallOptions): Promise<XzeprHealth>;
  /** `POST /api/v1/events`; resolves with the new event's id. */
  createEvent(event: CreateEvent, options?: XzeprCallOptions): Promise<string>;
  getEvent(id: string, options?: XzeprCallOptions): Promise<XzeprApiEvent>;
  /** `POST /api/v1/receivers`; resolves with the new receiver's id. */
  createReceiver(receiver: CreateReceiver, options?: XzeprCallOptions): Promise<string>;
  /** One page of receivers, in XZepr's order. */
  listReceivers(query?: ListReceiversQuery, options?: XzeprCallOptions): Promise<XzeprReceiverPage>;
  getReceiver(id: string, options?: XzeprCallOptions): Promise<XzeprApiReceiver>;
  updateReceiver(id: string, changes: UpdateReceiver, options?: XzeprCallOptions): Promise<void>;
  deleteReceiver(id: string, options?: XzeprCallOptions): Promise<void>;
  /** `POST /api/v1/groups`; resolves with the new group's id. */
  createGroup(group: CreateGroup, options?: XzeprCallOptions): Promise<string>;
  getGroup(id: string, options?: XzeprCallOptions): Promise<XzeprApiGroup>;
  updateGroup(id: string, changes: UpdateGroup, options?: XzeprCallOptions): Promise<void>;
  deleteGroup(id: string, options?: XzeprCallOptions): Promise<void>;
  /**
   * The id of the receiver with this `name` and `type`, created from `receiver` when there
   * is none. Every page is examined (100 receivers a page), because XZepr ignores the list
   * filters; `version`, `description` and `schema` are used only to create.
   */
  findOrCreateReceiver(
    receiver: CreateReceiver,
    options?: XzeprCallOptions,
  ): Promise<FoundReceiver>;
}

/** Receivers asked for per page by {@link XzeprClient.findOrCreateReceiver}. */
export const RECEIVER_PAGE_SIZE = 100;
const DEFAULT_TIMEOUT_MS = 10_000;
/** Longest part of an answer quoted in an error message. */
const QUOTED = 300;

interface Call<T> {
  readonly method: "GET" | "POST" | "PUT" | "DELETE";
  readonly path: string;
  readonly body?: unknown;
  /** `undefined` for answers without a body (204). */
  readonly schema?: z.ZodType<T>;
  readonly acceptStatus?: (status: number) => boolean;
  readonly options?: XzeprCallOptions;
}

/** A copy of a JSON value with every string redacted; object keys are kept. */
function redactStrings(value: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object") return value;
  if (depth > 64) return redact(JSON.stringify(value));
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    copy[key] = redactStrings(item, redact, depth + 1);
  return copy;
}

/** The URL without user name or password, for messages. */
function displayedOrigin(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    url.username = "";
    url.password = "";
    return url.toString().replace(/\/$/, "");
  } catch {
    return "the configured URL";
  }
}

/**
 * Creates a client for the XZepr at `baseUrl`.
 *
 * @example
 * const xzepr = createXzeprClient({ baseUrl: "http://127.0.0.1:8042", token: env.XZEPR_API_TOKEN });
 * const { id } = await xzepr.findOrCreateReceiver({
 *   name: "xzatoma-watcher", type: "xzatoma.watcher.result", version: "1.0.0",
 *   description: "Results of plans run by the XZatoma watcher", schema: { type: "object" },
 * });
 */
export function createXzeprClient(clientOptions: XzeprClientOptions): XzeprClient {
  const base = clientOptions.baseUrl.replace(/\/+$/, "");
  const origin = displayedOrigin(clientOptions.baseUrl);
  const token = clientOptions.token === "" ? undefined : clientOptions.token;
  const fetchImpl = clientOptions.fetch ?? globalThis.fetch;
  const timeoutMs = clientOptions.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const redact = clientOptions.redact ?? ((text: string) => text);

  /** Text from the server or the network, safe to show: the token cut out, length bounded. */
  function safe(text: string): string {
    const redacted = redact(token === undefined ? text : text.split(token).join("[redacted]"));
    return redacted.length > QUOTED ? `${redacted.slice(0, QUOTED)}…` : redacted;
  }

  async function call<T>(request: Call<T>): Promise<T> {
    const { method, path } = request;
    const where = `XZepr API ${method} ${path}`;
    const timeout = AbortSignal.timeout(timeoutMs);
    const callerSignal = request.options?.signal;
    const signal = callerSignal === undefined ? timeout : AbortSignal.any([timeout, callerSignal]);
    const headers: Record<string, string> = { accept: "application/json" };
    if (request.body !== undefined) headers["content-type"] = "application/json";
    if (token !== undefined) headers["authorization"] = `Bearer ${token}`;

    const failure = (error: unknown): XzeprApiError => {
      if (timeout.aborted) {
        return new XzeprApiError({
          reason: "timeout",
          message: `${where} got no answer from ${origin} within ${timeoutMs} ms.`,
          method,
          path,
        });
      }
      if (callerSignal?.aborted) {
        return new XzeprApiError({
          reason: "aborted",
          message: `${where} was aborted.`,
          method,
          path,
        });
      }
      const cause = (error as { cause?: { message?: string; code?: string } }).cause;
      const detail = cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
      return new XzeprApiError({
        reason: "network_error",
        message: `${where} could not reach XZepr at ${origin}: ${safe(String(detail))}`,
        method,
        path,
      });
    };

    let status: number;
    let text: string;
    try {
      const response = await fetchImpl(base + path, {
        method,
        headers,
        signal,
        ...(request.body === undefined
          ? {}
          : { body: JSON.stringify(redactStrings(request.body, redact)) }),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      throw failure(error);
    }

    let json: unknown;
    let parsedJson = false;
    if (text.trim() !== "") {
      try {
        json = JSON.parse(text);
        parsedJson = true;
      } catch {
        // Not JSON: an error page or the framework's plain-text refusal.
      }
    }
    const checked =
      parsedJson && request.schema !== undefined ? request.schema.safeParse(json) : undefined;
    const ok = status >= 200 && status < 300;
    // Some error statuses carry a regular answer (an unhealthy /health says so with 503).
    if (!ok && request.acceptStatus?.(status) === true && checked?.success) return checked.data;
    if (!ok) {
      const body = parsedJson ? xzeprErrorBodySchema.safeParse(json) : undefined;
      if (body?.success) {
        const said = body.data.message ?? body.data.error;
        throw new XzeprApiError({
          reason: body.data.error,
          message: `${where} failed with HTTP ${status} (${body.data.error}): ${safe(said)}`,
          method,
          path,
          status,
          ...(body.data.field === undefined ? {} : { field: body.data.field }),
        });
      }
      const said = text.trim() === "" ? "no details" : safe(text.trim());
      throw new XzeprApiError({
        reason: "http_error",
        message: `${where} failed with HTTP ${status}: ${said}`,
        method,
        path,
        status,
      });
    }
    if (request.schema === undefined) return undefined as T;
    if (checked?.success) return checked.data;
    const issue = checked?.error.issues[0];
    const problem =
      issue === undefined
        ? "the body is not JSON"
        : `${issue.path.join(".") || "(body)"}: ${issue.message}`;
    throw new XzeprApiError({
      reason: "invalid_response",
      message: `${where} answered HTTP ${status} with an unexpected body (${safe(problem)}).`,
      method,
      path,
      status,
    });
  }

  const id = (value: string) => encodeURIComponent(value);
  const created = async (path: string, body: unknown, options?: XzeprCallOptions) =>
    (await call({ method: "POST", path, body, schema: createdSchema, options })).data;

  const client: XzeprClient = {
    health: (options) =>
      call({
        method: "GET",
        path: "/health",
        schema: xzeprHealthSchema,
        acceptStatus: (status) => status === 503,
        options,
      }),
    createEvent: (event, options) => created("/api/v1/events", event, options),
    getEvent: (eventId, options) =>
      call({
        method: "GET",
        path: `/api/v1/events/${id(eventId)}`,
        schema: xzeprApiEventSchema,
        options,
      }),
    createReceiver: (receiver, options) => created("/api/v1/receivers", receiver, options),
    listReceivers: (query = {}, options) => {
      const search = new URLSearchParams();
      for (const key of ["limit", "offset", "name", "type", "version"] as const) {
        const value = query[key];
        if (value !== undefined) search.set(key, String(value));
      }
      const suffix = search.toString() === "" ? "" : `?${search.toString()}`;
      return call({
        method: "GET",
        path: `/api/v1/receivers${suffix}`,
        schema: xzeprReceiverPageSchema,
        options,
      });
    },
    getReceiver: (receiverId, options) =>
      call({
        method: "GET",
        path: `/api/v1/receivers/${id(receiverId)}`,
        schema: xzeprApiReceiverSchema,
        options,
      }),
    updateReceiver: (receiverId, changes, options) =>
      call({ method: "PUT", path: `/api/v1/receivers/${id(receiverId)}`, body: changes, options }),
    deleteReceiver: (receiverId, options) =>
      call({ method: "DELETE", path: `/api/v1/receivers/${id(receiverId)}`, options }),
    createGroup: (group, options) => created("/api/v1/groups", group, options),
    getGroup: (groupId, options) =>
      call({
        method: "GET",
        path: `/api/v1/groups/${id(groupId)}`,
        schema: xzeprApiGroupSchema,
        options,
      }),
    updateGroup: (groupId, changes, options) =>
      call({ method: "PUT", path: `/api/v1/groups/${id(groupId)}`, body: changes, options }),
    deleteGroup: (groupId, options) =>
      call({ method: "DELETE", path: `/api/v1/groups/${id(groupId)}`, options }),
    async findOrCreateReceiver(receiver, options) {
      let offset = 0;
      for (;;) {
        const page = await client.listReceivers(
          { limit: RECEIVER_PAGE_SIZE, offset, name: receiver.name, type: receiver.type },
          options,
        );
        const match = page.data.find(
          (candidate) => candidate.name === receiver.name && candidate.type === receiver.type,
        );
        if (match !== undefined) return { id: match.id, created: false };
        // Advance by what came back (a server may cap the page size); stop at the end, on an
        // empty page, or past the total, so a server that always says has_more cannot loop us.
        offset += page.data.length;
        if (!page.pagination.has_more || page.data.length === 0 || offset >= page.pagination.total)
          break;
      }
      return { id: await client.createReceiver(receiver, options), created: true };
    },
  };
  return client;
}
