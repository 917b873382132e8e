import { describe, expect, it } from "vitest";
import type { OutboundRecord } from "../transport/event-transport.js";
import { decodeEventMessage, type EventMessage } from "./decode-event-message.js";
import { toKafkaRecord, type CloudEventRecord } from "./kafka-record.js";
import {
  createResultEvent,
  isResultEventType,
  parseResultEvent,
  RESULT_EVENT_TYPES,
  type CreateResultEventOptions,
} from "./result-event.js";

const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

const completed: CreateResultEventOptions = {
  source: "xzatoma-watcher://build-host-1",
  trigger: {
    id: "01JXZEPR0BUILD0DEMO000001",
    source: "xzepr.event.receiver.demo-receiver-001",
    type: "build.success",
  },
  status: "completed",
  summary: "Plan build-verify completed",
  answer: "All three commands ran; the report is in tmp/build-verify-report.txt.",
  usage: { inputTokens: 812, outputTokens: 95, totalTokens: 907 },
  stopReason: "stop",
  durationMs: 4210,
  traceparent,
  time: new Date("2026-03-01T10:00:00Z"),
};

/** What a consumer receives for a record: bytes, text headers. */
function consumed(record: CloudEventRecord): EventMessage {
  return {
    key: record.key,
    value: new TextEncoder().encode(record.value),
    headers: { ...record.headers },
  };
}

describe("createResultEvent", () => {
  it("builds a CloudEvent 1.0 whose type, subject and extensions come from the run and its trigger", () => {
    const event = createResultEvent(completed);
    expect(event).toMatchObject({
      specversion: "1.0",
      source: "xzatoma-watcher://build-host-1",
      type: "io.xzatoma.watcher.plan.completed",
      time: "2026-03-01T10:00:00.000Z",
      subject: "01JXZEPR0BUILD0DEMO000001",
      datacontenttype: "application/json",
      data: {
        status: "completed",
        summary: "Plan build-verify completed",
        usage: { inputTokens: 812, outputTokens: 95, totalTokens: 907 },
        trigger: completed.trigger,
      },
      extensions: {
        traceparent,
        triggerid: "01JXZEPR0BUILD0DEMO000001",
        triggersource: "xzepr.event.receiver.demo-receiver-001",
      },
    });
    expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(createResultEvent(completed).id).not.toBe(event.id);
    expect(event.data).not.toHaveProperty("error");
  });

  it("marks a failed run by type and status and carries the error", () => {
    const event = createResultEvent({
      ...completed,
      status: "failed",
      answer: undefined,
      stopReason: "error",
      error: { message: "The model is unreachable.", code: "PROVIDER_UNAVAILABLE" },
    });
    expect(event.type).toBe(RESULT_EVENT_TYPES.failed);
    expect(event.data).toMatchObject({
      status: "failed",
      answer: null,
      error: { message: "The model is unreachable.", code: "PROVIDER_UNAVAILABLE" },
    });
    expect(isResultEventType(event.type)).toBe(true);
    expect(isResultEventType("build.success")).toBe(false);
  });

  it("refuses options that would make an invalid event", () => {
    expect(() => createResultEvent({ ...completed, traceparent: "00-abc-def-01" })).toThrow(
      'The traceparent "00-abc-def-01" is not W3C trace context.',
    );
    expect(() => createResultEvent({ ...completed, source: " " })).toThrow("source is empty");
    expect(() =>
      createResultEvent({
        ...completed,
        usage: { inputTokens: -1, outputTokens: 0, totalTokens: 0 },
      }),
    ).toThrow("usage.inputTokens");
  });
});

describe("toKafkaRecord and parseResultEvent", () => {
  it("round-trips a result in structured mode", () => {
    const event = createResultEvent(completed);
    const record = toKafkaRecord(event, "structured", event.subject);
    const outbound: OutboundRecord = record; // what a transport publishes
    expect(outbound.key).toBe("01JXZEPR0BUILD0DEMO000001");
    expect(record.headers).toEqual({
      "content-type": "application/cloudevents+json; charset=utf-8",
    });
    expect(JSON.parse(record.value)).toMatchObject({
      specversion: "1.0",
      traceparent,
      triggerid: event.subject,
    });
    expect(parseResultEvent(consumed(record))).toEqual({ kind: "result", event });
  });

  it("round-trips a result in binary mode: the data as JSON, attributes as ce_ headers, none undefined", () => {
    const event = createResultEvent(completed);
    const record = toKafkaRecord(event, "binary", event.subject);
    expect(JSON.parse(record.value)).toEqual(event.data);
    expect(record.headers).toEqual({
      "content-type": "application/json",
      ce_id: event.id,
      ce_time: "2026-03-01T10:00:00.000Z",
      ce_type: "io.xzatoma.watcher.plan.completed",
      ce_source: "xzatoma-watcher://build-host-1",
      ce_specversion: "1.0",
      ce_subject: "01JXZEPR0BUILD0DEMO000001",
      ce_traceparent: traceparent,
      ce_triggerid: "01JXZEPR0BUILD0DEMO000001",
      ce_triggersource: "xzepr.event.receiver.demo-receiver-001",
    });
    expect(parseResultEvent(consumed(record))).toEqual({ kind: "result", event });
  });

  it("leaves the key out when none is given, and refuses bytes data in binary mode", () => {
    const event = createResultEvent(completed);
    expect(toKafkaRecord(event, "structured")).not.toHaveProperty("key");
    expect(() =>
      toKafkaRecord(
        {
          ...event,
          datacontenttype: "application/octet-stream",
          data: new Uint8Array([1]),
        } as never,
        "binary",
      ),
    ).toThrow("structured mode");
  });

  it("sends a string as JSON text when the content type is JSON, and as it is otherwise", () => {
    const base = { specversion: "1.0", id: "1", source: "/s", type: "t", extensions: {} } as const;
    expect(
      toKafkaRecord({ ...base, datacontenttype: "application/json", data: "hi" }, "binary").value,
    ).toBe('"hi"');
    expect(
      toKafkaRecord({ ...base, datacontenttype: "text/plain", data: "hi" }, "binary").value,
    ).toBe("hi");
    const decoded = decodeEventMessage(
      consumed(
        toKafkaRecord({ ...base, datacontenttype: "application/json", data: "hi" }, "binary"),
      ),
    );
    expect(decoded).toMatchObject({ kind: "cloudevent", event: { data: "hi" } });
  });

  it("says why a message is not a watcher result", () => {
    const event = createResultEvent(completed);
    const reasonFor = (message: EventMessage) => {
      const parsed = parseResultEvent(message);
      return parsed.kind === "invalid" ? parsed.reason : "accepted";
    };
    const structured = (changed: object) =>
      consumed(toKafkaRecord({ ...event, ...changed } as never, "structured"));
    expect(reasonFor(structured({ type: "build.success" }))).toBe(
      `The CloudEvent ${event.id} is not a watcher result: its type is build.success.`,
    );
    expect(reasonFor(structured({ type: RESULT_EVENT_TYPES.failed }))).toBe(
      `The CloudEvent ${event.id} is not a watcher result: its data.status completed disagrees with its type.`,
    );
    const withoutUsage: Partial<typeof event.data> = { ...event.data };
    delete withoutUsage.usage;
    expect(reasonFor(structured({ data: withoutUsage }))).toBe(
      `The CloudEvent ${event.id} is not a watcher result: data.usage: Invalid input: expected object, received undefined.`,
    );
    expect(reasonFor(structured({ extensions: { traceparent } }))).toBe(
      `The CloudEvent ${event.id} is not a watcher result: it lacks the triggerid or triggersource extension.`,
    );
    expect(reasonFor({ value: new TextEncoder().encode('{"name":"plan"}'), headers: {} })).toBe(
      "The message is JSON but neither a CloudEvent nor an XZepr event: it has no specversion.",
    );
  });
});
