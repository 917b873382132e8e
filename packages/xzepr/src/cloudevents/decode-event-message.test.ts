import { readFileSync } from "node:fs";
import { CloudEvent, Kafka } from "cloudevents";
import { describe, expect, it } from "vitest";
import type { InboundMessage } from "../transport/event-transport.js";
import {
  decodeEventMessage,
  type DecodedEventMessage,
  type EventMessage,
} from "./decode-event-message.js";

const fixture = (name: string) =>
  readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url), "utf8");
const bytes = (text: string) => new TextEncoder().encode(text);

function message(
  value: string | Uint8Array | null,
  headers: Record<string, string> = {},
): EventMessage {
  return { value: typeof value === "string" ? bytes(value) : value, headers };
}

/** A message as a producer using the `cloudevents` library would send it. */
function fromLibrary(event: CloudEvent<unknown>, mode: "binary" | "structured"): EventMessage {
  const record = mode === "binary" ? Kafka.binary(event) : Kafka.structured(event);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(record.headers))
    if (value !== undefined) headers[name] = String(value);
  const value = typeof record.value === "string" ? record.value : JSON.stringify(record.value);
  return message(value, headers);
}

function reason(decoded: DecodedEventMessage): string {
  if (decoded.kind !== "invalid") throw new Error(`expected invalid, got ${decoded.kind}`);
  return decoded.reason;
}

const buildEvent = new CloudEvent({
  id: "01JBUILD0000000000000000001",
  source: "https://ci.example.com/pipelines/42",
  type: "com.example.build.succeeded",
  subject: "xzatoma",
  time: "2026-03-01T10:00:00.000Z",
  datacontenttype: "application/json",
  data: { plan: { name: "verify", steps: [{ name: "s", action: "echo" }] } },
  traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
});

describe("decodeEventMessage: XZepr's envelope", () => {
  it("reads XZepr's events, headerless with specversion 1.0.1, as xzepr", () => {
    for (const name of [
      "build_success_event.json",
      "deploy_success_event.json",
      "receiver_created_event.json",
    ]) {
      const decoded = decodeEventMessage(message(fixture(name)));
      expect(decoded.kind).toBe("xzepr");
    }
    const decoded = decodeEventMessage(message(fixture("build_success_event.json")));
    if (decoded.kind !== "xzepr") throw new Error("expected xzepr");
    expect(decoded.event).toMatchObject({
      type: "build.success",
      api_version: "v1",
      platform_id: "local",
    });
  });

  it("names the fields an XZepr envelope lacks", () => {
    const event = JSON.parse(fixture("build_success_event.json")) as Record<string, unknown>;
    delete event["api_version"];
    delete event["package"];
    expect(reason(decodeEventMessage(message(JSON.stringify(event))))).toBe(
      "The message looks like an XZepr event but it lacks the field(s) api_version, package.",
    );
    event["api_version"] = "v1";
    event["package"] = "p";
    event["success"] = "yes";
    expect(reason(decodeEventMessage(message(JSON.stringify(event))))).toContain(
      "invalid: success: Invalid input: expected boolean, received string",
    );
  });

  it("treats specversion 1.0 with XZepr's underscore attributes as XZepr's envelope", () => {
    const event = JSON.parse(fixture("build_success_event.json")) as Record<string, unknown>;
    event["specversion"] = "1.0";
    expect(decodeEventMessage(message(JSON.stringify(event))).kind).toBe("xzepr");
  });
});

describe("decodeEventMessage: CloudEvents 1.0", () => {
  it("reads a binary-mode event: attributes from ce_ headers, JSON data parsed, extensions kept", () => {
    const decoded = decodeEventMessage({ ...fromLibrary(buildEvent, "binary"), key: "k1" });
    expect(decoded).toEqual({
      kind: "cloudevent",
      event: {
        mode: "binary",
        specversion: "1.0",
        id: "01JBUILD0000000000000000001",
        source: "https://ci.example.com/pipelines/42",
        type: "com.example.build.succeeded",
        subject: "xzatoma",
        time: "2026-03-01T10:00:00.000Z",
        datacontenttype: "application/json",
        data: { plan: { name: "verify", steps: [{ name: "s", action: "echo" }] } },
        extensions: { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
      },
    });
  });

  it("reads a structured-mode event, by its content type or by its body alone", () => {
    const structured = fromLibrary(buildEvent, "structured");
    expect(structured.headers["content-type"]).toBe("application/cloudevents+json; charset=utf-8");
    const decoded = decodeEventMessage(structured);
    expect(decoded.kind).toBe("cloudevent");
    if (decoded.kind !== "cloudevent") return;
    expect(decoded.event.mode).toBe("structured");
    expect(decoded.event.data).toEqual(buildEvent.data);
    expect(decoded.event.extensions).toEqual({ traceparent: buildEvent["traceparent"] });
    const sniffed = decodeEventMessage(message(structured.value as unknown as string));
    expect(sniffed).toEqual(decoded);
  });

  it("takes a transport's inbound message as it is", () => {
    const binary = fromLibrary(buildEvent, "binary");
    const inbound: InboundMessage = {
      ...binary,
      topic: "builds",
      partition: 0,
      offset: "0",
      key: undefined,
      timestamp: 0,
    };
    expect(decodeEventMessage(inbound).kind).toBe("cloudevent");
  });

  it("matches header names in any case (Content-Type, CE_ID)", () => {
    const structured = fromLibrary(buildEvent, "structured");
    const upper = message(structured.value as unknown as string, {
      "Content-Type": "application/cloudevents+json",
    });
    expect(decodeEventMessage(upper).kind).toBe("cloudevent");
    const binary = fromLibrary(buildEvent, "binary");
    const shouting = Object.fromEntries(
      Object.entries(binary.headers).map(([name, value]) => [name.toUpperCase(), value]),
    );
    expect(decodeEventMessage({ ...binary, headers: shouting }).kind).toBe("cloudevent");
  });

  it("reads an event without time, which the library alone would refuse with a RangeError", () => {
    const body = { specversion: "1.0", id: "e1", source: "/ci", type: "t", data: "run it" };
    const decoded = decodeEventMessage(
      message(JSON.stringify(body), { "content-type": "application/cloudevents+json" }),
    );
    expect(decoded).toMatchObject({ kind: "cloudevent", event: { id: "e1", data: "run it" } });
    if (decoded.kind === "cloudevent") expect(decoded.event).not.toHaveProperty("time");
  });

  it("keeps text and bytes data of binary-mode events as text and bytes", () => {
    const headers = { ce_id: "1", ce_source: "/s", ce_type: "t", ce_specversion: "1.0" };
    const text = decodeEventMessage(
      message("name: plan\n", { ...headers, "content-type": "application/yaml" }),
    );
    expect(text).toMatchObject({ kind: "cloudevent", event: { data: "name: plan\n" } });
    const raw = new Uint8Array([0, 0xff, 0xfe, 1]);
    const binary = decodeEventMessage(
      message(raw, { ...headers, "content-type": "application/octet-stream" }),
    );
    if (binary.kind !== "cloudevent") throw new Error(`expected cloudevent, got ${binary.kind}`);
    expect(Array.from(binary.event.data as Uint8Array)).toEqual([0, 0xff, 0xfe, 1]);
  });

  it("names what a CloudEvent lacks or has wrong", () => {
    const body = { specversion: "1.0", id: "e1", source: "/ci", type: "t" };
    const untyped: Partial<typeof body> = { ...body };
    delete untyped.type;
    expect(reason(decodeEventMessage(message(JSON.stringify(untyped))))).toBe(
      "The message is a structured CloudEvent (it has a specversion) but lacks the required attribute(s) type.",
    );
    expect(
      reason(
        decodeEventMessage(
          message(JSON.stringify({ specversion: "1.0" }), {
            "content-type": "application/cloudevents+json",
          }),
        ),
      ),
    ).toBe(
      "The message is a structured CloudEvent but lacks the required attribute(s) id, source, type.",
    );
    expect(reason(decodeEventMessage(message("{}", { ce_id: "1", ce_specversion: "1.0" })))).toBe(
      "The message is a binary-mode CloudEvent but lacks source (header ce_source), type (header ce_type).",
    );
    expect(
      reason(decodeEventMessage(message(JSON.stringify({ ...body, time: "yesterday" })))),
    ).toBe('The message is not a valid CloudEvent: time must match format "date-time".');
    expect(reason(decodeEventMessage(message(JSON.stringify({ ...body, source: "" }))))).toBe(
      "The message is not a valid CloudEvent: source must NOT have fewer than 1 characters.",
    );
    expect(reason(decodeEventMessage(message(JSON.stringify({ ...body, traceParent: "x" }))))).toBe(
      'The message is not a valid CloudEvent: the attribute name "traceParent" is not lowercase letters and digits.',
    );
    expect(reason(decodeEventMessage(message(JSON.stringify({ ...body, nested: { a: 1 } }))))).toBe(
      "The message is not a valid CloudEvent: the extension nested must be text, an integer or a boolean.",
    );
    const headers = { ce_id: "1", ce_source: "/s", ce_type: "t", ce_specversion: "1.0" };
    expect(
      reason(
        decodeEventMessage(message("{oops", { ...headers, "content-type": "application/json" })),
      ),
    ).toBe("The message's CloudEvent data is declared application/json but is not valid JSON.");
    expect(reason(decodeEventMessage(message("{}", { ...headers, ce_time: "not a time" })))).toBe(
      "The message is not a valid CloudEvent: its time is not a valid timestamp.",
    );
  });

  it("refuses other spec versions, batches and non-JSON structured encodings", () => {
    expect(
      reason(
        decodeEventMessage(
          message(JSON.stringify({ specversion: "0.3", id: "1", source: "/", type: "t" })),
        ),
      ),
    ).toBe(
      'The message has specversion "0.3"; only CloudEvents 1.0 and XZepr\'s 1.0.x events are read.',
    );
    expect(
      reason(
        decodeEventMessage(
          message("{}", { ce_id: "1", ce_source: "/s", ce_type: "t", ce_specversion: "0.3" }),
        ),
      ),
    ).toBe(
      'The message is a binary-mode CloudEvent with specversion "0.3"; only CloudEvents 1.0 is read.',
    );
    expect(
      reason(
        decodeEventMessage(message("[]", { "content-type": "application/cloudevents-batch+json" })),
      ),
    ).toContain("batch");
    expect(
      reason(
        decodeEventMessage(message("<e/>", { "content-type": "application/cloudevents+xml" })),
      ),
    ).toBe(
      "The message is a structured CloudEvent in application/cloudevents+xml; only application/cloudevents+json is read.",
    );
    expect(
      reason(
        decodeEventMessage(message("name: x", { "content-type": "application/cloudevents+json" })),
      ),
    ).toBe("The message says it is a structured CloudEvent but it is not a JSON object.");
  });
});

describe("decodeEventMessage: plain text and unusable values", () => {
  it("gives plain plans back as text only when asked, and says why otherwise", () => {
    const yaml = "name: verify\nsteps:\n  - name: one\n    action: echo hi\n";
    expect(decodeEventMessage(message(yaml), { plain: true })).toEqual({
      kind: "plain",
      text: yaml,
    });
    expect(reason(decodeEventMessage(message(yaml)))).toBe(
      "The message is neither a CloudEvent nor an XZepr event: it is not a JSON object.",
    );
    const plan = JSON.stringify({ name: "verify", steps: [] });
    expect(decodeEventMessage(message(plan), { plain: true })).toEqual({
      kind: "plain",
      text: plan,
    });
    expect(reason(decodeEventMessage(message(plan)))).toBe(
      "The message is JSON but neither a CloudEvent nor an XZepr event: it has no specversion.",
    );
    expect(reason(decodeEventMessage(message("{oops")))).toMatch(
      /^The message is neither a CloudEvent nor an XZepr event: it is not valid JSON \(/,
    );
  });

  it("refuses empty values, tombstones and bytes that are not UTF-8, even in plain mode", () => {
    expect(reason(decodeEventMessage(message(null), { plain: true }))).toBe(
      "The message has no value (empty or a tombstone).",
    );
    expect(reason(decodeEventMessage(message(""), { plain: true }))).toBe(
      "The message has no value (empty or a tombstone).",
    );
    expect(reason(decodeEventMessage(message(" \n\t"), { plain: true }))).toBe(
      "The message has no value (only whitespace).",
    );
    expect(
      reason(
        decodeEventMessage(message(new Uint8Array([0x7b, 0xc3, 0x28, 0x7d])), { plain: true }),
      ),
    ).toBe("The message is not valid UTF-8 text.");
  });

  it("never throws on hostile input", () => {
    const hostile: EventMessage[] = [
      {
        value: bytes('{"specversion":"1.0","id":"1","source":"/","type":"t","__proto__":{"x":1}}'),
        headers: {},
      },
      {
        value: bytes("{}"),
        headers: { __proto__: "x", ce___proto__: "y" } as unknown as Record<string, string>,
      },
      {
        value: bytes("{}"),
        headers: { ce_id: Buffer.from("1") } as unknown as Record<string, string>,
      },
      {
        value: bytes('{"specversion":"1.0","id":"1","source":"/","type":"t","schemaurl":"x"}'),
        headers: {},
      },
      {
        value: bytes('{"specversion":"1.0","id":"1","source":"/","type":"t","data_base64":7}'),
        headers: {},
      },
      { value: bytes('{"specversion":["1.0"]}'), headers: {} },
      { value: bytes('{"specversion":1.0,"id":1}'), headers: {} },
      { value: bytes("{}"), headers: undefined as unknown as Record<string, string> },
      { value: "not bytes" as unknown as Uint8Array, headers: {} },
    ];
    expect(reason(decodeEventMessage(hostile[0]!))).toBe(
      'The message is not a valid CloudEvent: the attribute name "__proto__" is not lowercase letters and digits.',
    );
    for (const entry of hostile) {
      const decoded = decodeEventMessage(entry, { plain: true });
      expect(["invalid", "cloudevent", "plain"]).toContain(decoded.kind);
      if (decoded.kind === "invalid") expect(decoded.reason).toMatch(/^The message .*\.$/s);
    }
  });

  it("handles 10 MB values: text, JSON data, deep nesting, and an XZepr event with 100 000 bad entries", () => {
    const tenMb = 10 * 1024 * 1024;
    const yaml = `name: big\nnotes: ${"x".repeat(tenMb)}\n`;
    expect(decodeEventMessage(message(yaml), { plain: true })).toMatchObject({ kind: "plain" });
    const bigData = JSON.stringify({
      specversion: "1.0",
      id: "1",
      source: "/s",
      type: "t",
      data: "y".repeat(tenMb),
    });
    expect(decodeEventMessage(message(bigData)).kind).toBe("cloudevent");
    const depth = 1_000_000;
    const deep = `{"specversion":"1.0","id":"1","source":"/s","type":"t","data":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`;
    expect(reason(decodeEventMessage(message(deep), { plain: true }))).toBe(
      "The message is neither a CloudEvent nor an XZepr event: it nests deeper than 512 levels.",
    );
    const deepData = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const binaryHeaders = { ce_id: "1", ce_source: "/s", ce_type: "t", ce_specversion: "1.0" };
    expect(
      reason(
        decodeEventMessage(
          message(deepData, { ...binaryHeaders, "content-type": "application/json" }),
        ),
      ),
    ).toBe("The message's CloudEvent data nests deeper than 512 levels.");
    // Brackets inside strings do not count as nesting.
    const brackets = JSON.stringify({
      specversion: "1.0",
      id: "1",
      source: "/s",
      type: "t",
      data: "[{".repeat(tenMb / 4),
    });
    expect(decodeEventMessage(message(brackets)).kind).toBe("cloudevent");
    const envelope = JSON.parse(fixture("build_success_event.json")) as {
      data: { events: unknown[] };
    };
    envelope.data.events = Array.from({ length: 100_000 }, () => ({ id: 1 }));
    const decoded = decodeEventMessage(message(JSON.stringify(envelope)));
    expect(reason(decoded).length).toBeLessThan(5_000);
  }, 60_000);
});
