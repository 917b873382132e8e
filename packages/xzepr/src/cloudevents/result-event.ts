/**
 * The watcher's result: one CloudEvents 1.0 event per plan run, published after the run and
 * read back by tests and by whoever consumes the results topic.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { CloudEventExtensionValue, CloudEventLike } from "./cloud-event.js";
import { decodeEventMessage, type EventMessage } from "./decode-event-message.js";

/**
 * The result event types: `io.xzatoma.watcher.plan.completed` when the run finished,
 * `io.xzatoma.watcher.plan.failed` when it did not (an error, a limit, a cancellation).
 * Reverse-DNS names as the CloudEvents spec recommends; the data's `status` says the same.
 */
export const RESULT_EVENT_TYPES = {
  completed: "io.xzatoma.watcher.plan.completed",
  failed: "io.xzatoma.watcher.plan.failed",
} as const;

/** One of {@link RESULT_EVENT_TYPES}. */
export type ResultEventType = (typeof RESULT_EVENT_TYPES)[keyof typeof RESULT_EVENT_TYPES];

/** True for the type of a watcher result: a watcher skips its own results on a shared topic. */
export function isResultEventType(type: string): type is ResultEventType {
  return type === RESULT_EVENT_TYPES.completed || type === RESULT_EVENT_TYPES.failed;
}

const text = z.string();
const count = z.number().int().min(0);

/** The result's `data`. Unknown keys are kept, so a newer producer's results still read. */
export const resultEventDataSchema = z.looseObject({
  status: z.enum(["completed", "failed"]),
  summary: text,
  /** The model's final answer; `null` when the run ended without one. */
  answer: text.nullable(),
  usage: z.looseObject({ inputTokens: count, outputTokens: count, totalTokens: count }),
  /** Why the run stopped, in the agent's words (`stop`, `max-turns`, `error`, ...). */
  stopReason: text,
  durationMs: z.number().min(0),
  /** The event that asked for the run. */
  trigger: z.looseObject({ id: text, source: text, type: text }),
  /** Present on failure: what went wrong, and the error's code when it had one. */
  error: z.looseObject({ message: text, code: text.optional() }).optional(),
});

/** The result's `data`. */
export type ResultEventData = z.output<typeof resultEventDataSchema>;

/** Extensions a result carries (besides any a caller adds). */
export type ResultEventExtensions = Readonly<Record<string, CloudEventExtensionValue>> & {
  /** W3C trace context of the run, so the result joins the trace that ran the plan. */
  readonly traceparent?: string;
  readonly tracestate?: string;
  /** The trigger's id and source, so a result can be routed without reading its data. */
  readonly triggerid: string;
  readonly triggersource: string;
};

/** A watcher result as a CloudEvent. */
export interface ResultEvent extends CloudEventLike<ResultEventData> {
  readonly type: ResultEventType;
  readonly time: string;
  /** The trigger's id. */
  readonly subject: string;
  readonly datacontenttype: "application/json";
  readonly extensions: ResultEventExtensions;
}

/** What {@link createResultEvent} needs. */
export interface CreateResultEventOptions {
  /** Who produced the result, as a URI reference, e.g. `xzatoma-watcher://<instance>`. */
  readonly source: string;
  readonly trigger: { readonly id: string; readonly source: string; readonly type: string };
  readonly status: "completed" | "failed";
  readonly summary: string;
  readonly answer?: string | null;
  readonly usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  readonly stopReason: string;
  readonly durationMs: number;
  readonly error?: { readonly message: string; readonly code?: string };
  /** `00-<trace id>-<span id>-<flags>`; left out when not given. */
  readonly traceparent?: string;
  readonly tracestate?: string;
  /** Defaults: a random UUID, and now. */
  readonly id?: string;
  readonly time?: Date;
}

const TRACEPARENT = /^[0-9a-f]{2}-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

/**
 * Builds the result of one plan run: `type` from {@link RESULT_EVENT_TYPES} by `status`,
 * `subject` = the trigger's id, `datacontenttype: application/json`, data as
 * {@link ResultEventData}, extensions `triggerid`, `triggersource` and the trace context.
 * Throws `TypeError` when the options are not valid (a programming error: an empty source,
 * a negative count, a malformed `traceparent`).
 *
 * @example
 * const event = createResultEvent({
 *   source: "xzatoma-watcher://build-host-1",
 *   trigger: { id: message.id, source: message.source, type: message.type },
 *   status: "completed", summary: "Plan build-verify completed", answer: "All artifacts present",
 *   usage: { inputTokens: 812, outputTokens: 95, totalTokens: 907 },
 *   stopReason: "stop", durationMs: 4210, traceparent,
 * });
 * await producer.send(toKafkaRecord(event, "structured", event.subject));
 */
export function createResultEvent(options: CreateResultEventOptions): ResultEvent {
  if (options.source.trim() === "") throw new TypeError("The result event's source is empty.");
  if (options.trigger.id === "") throw new TypeError("The result event's trigger id is empty.");
  if (options.traceparent !== undefined && !TRACEPARENT.test(options.traceparent)) {
    throw new TypeError(`The traceparent "${options.traceparent}" is not W3C trace context.`);
  }
  const data = resultEventDataSchema.safeParse({
    status: options.status,
    summary: options.summary,
    answer: options.answer ?? null,
    usage: { ...options.usage },
    stopReason: options.stopReason,
    durationMs: options.durationMs,
    trigger: { ...options.trigger },
    ...(options.error === undefined ? {} : { error: { ...options.error } }),
  });
  if (!data.success) {
    const issue = data.error.issues[0];
    throw new TypeError(
      `The result event's data is not valid: ${issue?.path.join(".")}: ${issue?.message}.`,
    );
  }
  return {
    specversion: "1.0",
    id: options.id ?? randomUUID(),
    source: options.source,
    type: RESULT_EVENT_TYPES[options.status],
    time: (options.time ?? new Date()).toISOString(),
    subject: options.trigger.id,
    datacontenttype: "application/json",
    data: data.data,
    extensions: {
      triggerid: options.trigger.id,
      triggersource: options.trigger.source,
      ...(options.traceparent === undefined ? {} : { traceparent: options.traceparent }),
      ...(options.tracestate === undefined ? {} : { tracestate: options.tracestate }),
    },
  };
}

/** A result read back: the event, or why the message is not a watcher result. */
export type ParsedResultEvent =
  | { readonly kind: "result"; readonly event: ResultEvent }
  | { readonly kind: "invalid"; readonly reason: string };

/**
 * Reads a watcher result from a Kafka message in either content mode and checks it: a valid
 * CloudEvent of a {@link RESULT_EVENT_TYPES} type, JSON data matching
 * {@link resultEventDataSchema} whose `status` agrees with the type, a `time` and a
 * `subject`. Never throws.
 */
export function parseResultEvent(message: EventMessage): ParsedResultEvent {
  const decoded = decodeEventMessage(message);
  if (decoded.kind === "invalid") return decoded;
  if (decoded.kind !== "cloudevent") {
    return { kind: "invalid", reason: "The message is not a CloudEvent, so not a watcher result." };
  }
  const event: CloudEventLike = { ...decoded.event };
  delete (event as { mode?: unknown }).mode;
  const refuse = (reason: string): ParsedResultEvent => ({
    kind: "invalid",
    reason: `The CloudEvent ${event.id} is not a watcher result: ${reason}.`,
  });
  if (!isResultEventType(event.type)) return refuse(`its type is ${event.type}`);
  if (!/^application\/json\b/i.test(event.datacontenttype ?? ""))
    return refuse("its datacontenttype is not application/json");
  if (event.time === undefined) return refuse("it has no time");
  if (event.subject === undefined) return refuse("it has no subject");
  const data = resultEventDataSchema.safeParse(event.data);
  if (!data.success) {
    const issues = data.error.issues.slice(0, 5).map((issue) => {
      return `data.${issue.path.join(".")}: ${issue.message}`;
    });
    return refuse(issues.join("; "));
  }
  if (RESULT_EVENT_TYPES[data.data.status] !== event.type)
    return refuse(`its data.status ${data.data.status} disagrees with its type`);
  const { triggerid, triggersource } = event.extensions;
  if (typeof triggerid !== "string" || typeof triggersource !== "string")
    return refuse("it lacks the triggerid or triggersource extension");
  return {
    kind: "result",
    event: {
      ...event,
      type: event.type,
      time: event.time,
      subject: event.subject,
      datacontenttype: "application/json",
      data: data.data,
      extensions: { ...event.extensions, triggerid, triggersource },
    },
  };
}
