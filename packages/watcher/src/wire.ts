/**
 * What the watcher reads from and writes to the wire: a consumed message turned into a
 * trigger (which event, what plan), and the result and dead-letter records it publishes.
 */
import {
  createResultEvent,
  decodeEventMessage,
  toDeadLetterRecord,
  toKafkaRecord,
  type InboundMessage,
  type OutboundRecord,
} from "@xzatoma/xzepr";
import type { FilterableEvent } from "./event-filter.js";
import { extractCloudEventPlan, extractXzeprPlan, isXzeprNotice } from "./extract-plan.js";
import type { ExecutionReport } from "./plan-executor.js";
import type { WatcherConfig } from "@xzatoma/runtime/sections";

/** The plan a message carries: its text, nothing, or something that cannot be one. */
export type TriggerPlan =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "none" }
  | { readonly kind: "invalid"; readonly reason: string };

/** The event a message is, as the watcher acts on it. */
export interface Trigger {
  readonly id: string;
  readonly source: string;
  readonly type: string;
  /** What the filters look at. */
  readonly filterable: FilterableEvent;
  readonly plan: TriggerPlan;
  /**
   * The W3C trace context the event was sent in, as given (validated where it is used): a
   * CloudEvent's `traceparent` attribute (structured mode, or the `ce_traceparent` header in
   * binary mode), else a `traceparent` Kafka header.
   */
  readonly traceparent?: string;
  /** The `tracestate` that came with it, found the same way. */
  readonly tracestate?: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : undefined;

/** A header's value, its name matched case-insensitively. */
function header(message: InboundMessage, name: string): string | undefined {
  for (const [key, value] of Object.entries(message.headers)) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}

/** The trace context of a message: the event's own attributes first, else its headers. */
function traceContextOf(
  message: InboundMessage,
  extensions: Readonly<Record<string, unknown>> = {},
): { traceparent?: string; tracestate?: string } {
  const own = text(extensions["traceparent"]);
  const traceparent = own ?? header(message, "traceparent");
  const tracestate =
    own !== undefined ? text(extensions["tracestate"]) : header(message, "tracestate");
  return {
    ...(traceparent !== undefined ? { traceparent } : {}),
    ...(tracestate !== undefined ? { tracestate } : {}),
  };
}

/**
 * Reads one consumed message. `plain` lets text that is no event through as a plan (the
 * generic watcher); its identity is then the message key, or its place in the topic.
 */
export function triggerOf(
  message: InboundMessage,
  options: { readonly plain: boolean },
):
  | { readonly kind: "ok"; readonly trigger: Trigger }
  | { readonly kind: "invalid"; readonly reason: string } {
  const decoded = decodeEventMessage(message, { plain: options.plain });
  switch (decoded.kind) {
    case "invalid":
      return decoded;
    case "xzepr": {
      const event = decoded.event;
      const notice = isXzeprNotice(event);
      const planText = notice ? undefined : extractXzeprPlan(event);
      const hasEntities = event.data.events.length > 0;
      return {
        kind: "ok",
        trigger: {
          id: event.id,
          source: event.source,
          type: event.type,
          filterable: event,
          ...traceContextOf(message),
          plan:
            planText !== undefined
              ? { kind: "text", text: planText }
              : hasEntities && !notice
                ? {
                    kind: "invalid",
                    reason: "The event carries no plan: data.events[0].payload is empty.",
                  }
                : { kind: "none" },
        },
      };
    }
    case "cloudevent": {
      const event = decoded.event;
      const planText = extractCloudEventPlan(event.data);
      const success = event.extensions["success"];
      const platformId = text(event.extensions["platformid"]);
      const pkg = text(event.extensions["package"]);
      const apiVersion = text(event.extensions["apiversion"]);
      return {
        kind: "ok",
        trigger: {
          id: event.id,
          source: event.source,
          type: event.type,
          filterable: {
            type: event.type,
            source: event.source,
            ...(typeof success === "boolean" ? { success } : {}),
            ...(platformId !== undefined ? { platform_id: platformId } : {}),
            ...(pkg !== undefined ? { package: pkg } : {}),
            ...(apiVersion !== undefined ? { api_version: apiVersion } : {}),
          },
          ...traceContextOf(message, event.extensions),
          plan:
            planText !== undefined
              ? { kind: "text", text: planText }
              : { kind: "invalid", reason: "The CloudEvent carries no plan: its data is empty." },
        },
      };
    }
    case "plain": {
      const id = message.key ?? `${message.topic}/${message.partition}/${message.offset}`;
      const source = `kafka://${message.topic}`;
      return {
        kind: "ok",
        trigger: {
          id,
          source,
          type: "plan",
          filterable: { type: "plan", source },
          ...traceContextOf(message),
          plan:
            decoded.text.trim() === ""
              ? { kind: "invalid", reason: "The message is empty." }
              : { kind: "text", text: decoded.text },
        },
      };
    }
  }
}

/**
 * Why a message cannot be used, in a word (a metric label, `x-xzatoma-dlq-code`): over
 * `max_message_bytes`; a tombstone (no value); not an event the watcher reads; an event without
 * a plan; a plan that is not valid.
 */
export type DeadLetterCode = "too_large" | "tombstone" | "undecodable" | "no_plan" | "invalid_plan";

/** The header of a dead letter that gives its {@link DeadLetterCode} (`too_large`, `no_plan`, ...). */
export const DEAD_LETTER_CODE_HEADER = "x-xzatoma-dlq-code";

/** The most of a message's value a dead letter keeps. */
export const DEAD_LETTER_MAX_VALUE_BYTES = 65_536;

/**
 * The dead-letter record for `message`: the reason in headers, its bytes untouched up to
 * {@link DEAD_LETTER_MAX_VALUE_BYTES} (a larger value is cut there and the record says how
 * large it was, so an oversized poison message cannot be refused by the dead-letter topic too).
 */
export function deadLetterRecord(
  message: InboundMessage,
  reason: string,
  code?: DeadLetterCode,
): OutboundRecord {
  const size = message.value?.byteLength ?? 0;
  const cut = size > DEAD_LETTER_MAX_VALUE_BYTES;
  const record = toDeadLetterRecord(
    cut
      ? { ...message, value: message.value?.subarray(0, DEAD_LETTER_MAX_VALUE_BYTES) ?? null }
      : message,
    reason,
    { topic: message.topic, partition: message.partition, offset: message.offset },
  );
  return {
    ...record,
    headers: {
      ...record.headers,
      ...(code !== undefined ? { [DEAD_LETTER_CODE_HEADER]: code } : {}),
      ...(cut ? { "x-xzatoma-dlq-original-bytes": String(size) } : {}),
    },
  };
}

/** What {@link resultRecord} builds a result from. */
export interface ResultInput {
  readonly config: WatcherConfig;
  readonly instance: string;
  readonly trigger: Trigger;
  readonly status: "completed" | "failed";
  readonly summary: string;
  readonly report: ExecutionReport;
  readonly durationMs: number;
  readonly traceparent: string;
  readonly tracestate?: string;
}

/** The result event, as a record for the output topic keyed by the trigger's id. */
export function resultRecord(input: ResultInput): OutboundRecord {
  const { report } = input;
  const event = createResultEvent({
    source: input.instance,
    status: input.status,
    summary: input.summary,
    answer: report.text,
    usage: {
      inputTokens: report.usage?.inputTokens ?? 0,
      outputTokens: report.usage?.outputTokens ?? 0,
      totalTokens:
        report.usage?.totalTokens ??
        (report.usage?.inputTokens ?? 0) + (report.usage?.outputTokens ?? 0),
    },
    stopReason: report.stopReason,
    durationMs: input.durationMs,
    trigger: { id: input.trigger.id, source: input.trigger.source, type: input.trigger.type },
    traceparent: input.traceparent,
    ...(input.tracestate !== undefined ? { tracestate: input.tracestate } : {}),
    ...(report.error !== undefined ? { error: { message: report.error } } : {}),
  });
  return toKafkaRecord(event, input.config.kafka.result_mode, input.trigger.id);
}
