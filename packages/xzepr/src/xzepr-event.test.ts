import { readFileSync } from "node:fs";
import { isErrorCode, isXzatomaError, XzatomaError } from "@xzatoma/errors";
import { describe, expect, it } from "vitest";
import { parseXzeprEvent, XzeprEventError } from "./xzepr-event.js";

const fixture = (name: string) =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");

function failure(value: string | Uint8Array): XzeprEventError {
  try {
    parseXzeprEvent(value);
  } catch (error) {
    if (error instanceof XzeprEventError) return error;
    throw error;
  }
  throw new Error("expected the event to be refused");
}

describe("parseXzeprEvent", () => {
  it("parses the recorded build and deploy events, bytes or text", () => {
    const build = parseXzeprEvent(new TextEncoder().encode(fixture("build_success_event.json")));
    expect(build).toMatchObject({
      type: "build.success",
      specversion: "1.0.1",
      success: true,
      package: "xzatoma-demo",
    });
    expect(build.data.events[0]?.name).toBe("build-verify");
    expect(parseXzeprEvent(fixture("deploy_success_event.json")).type).toBe("deployment.success");
  });

  it("reads XZepr's receiver-created system event, its receiver_type given as type", () => {
    const event = parseXzeprEvent(fixture("receiver_created_event.json"));
    expect(event.type).toBe("xzepr.event.receiver.created");
    expect(event.data.event_receivers).toHaveLength(1);
    const receiver = event.data.event_receivers[0]!;
    expect(receiver).toMatchObject({
      id: "01K0XZEPR0REC0000000000001",
      name: "xzatoma-watcher",
      type: "xzatoma.watcher.result",
      owner_id: "01K0XZEPR0WNER000000000001",
      resource_version: 1,
    });
    expect(receiver).not.toHaveProperty("receiver_type");
    expect(event.data.events[0]).toMatchObject({ owner_id: "01K0XZEPR0WNER000000000001" });
  });

  it("reads XZepr's group-created system event, its group_type given as type", () => {
    const event = parseXzeprEvent(fixture("group_created_event.json"));
    const group = event.data.event_receiver_groups[0]!;
    expect(group).toMatchObject({
      name: "watchers",
      type: "xzatoma",
      enabled: true,
      event_receiver_ids: ["01K0XZEPR0REC0000000000001"],
    });
    expect(group).not.toHaveProperty("group_type");
  });

  it("takes type as it is when a receiver already says type, and prefers it to receiver_type", () => {
    const event = JSON.parse(fixture("receiver_created_event.json")) as {
      data: { event_receivers: Record<string, unknown>[] };
    };
    const receiver = event.data.event_receivers[0]!;
    receiver["type"] = "webhook";
    expect(parseXzeprEvent(JSON.stringify(event)).data.event_receivers[0]?.type).toBe("webhook");
    delete receiver["receiver_type"];
    expect(parseXzeprEvent(JSON.stringify(event)).data.event_receivers[0]?.type).toBe("webhook");
  });

  it("names the receiver's and group's missing kind and fields", () => {
    const receiverEvent = JSON.parse(fixture("receiver_created_event.json")) as {
      data: { event_receivers: Record<string, unknown>[] };
    };
    delete receiverEvent.data.event_receivers[0]!["receiver_type"];
    delete receiverEvent.data.event_receivers[0]!["fingerprint"];
    expect(failure(JSON.stringify(receiverEvent)).issues).toEqual([
      "data.event_receivers.0.fingerprint: Invalid input: expected string, received undefined",
    ]);
    const groupEvent = JSON.parse(fixture("group_created_event.json")) as {
      data: { event_receiver_groups: Record<string, unknown>[] };
    };
    delete groupEvent.data.event_receiver_groups[0]!["group_type"];
    expect(failure(JSON.stringify(groupEvent)).issues).toEqual([
      "data.event_receiver_groups.0.type: expected a string (XZepr also spells it group_type)",
    ]);
  });

  it("names each invalid field, and refuses empty, non-JSON and non-1.0 events", () => {
    const event = JSON.parse(fixture("build_success_event.json")) as Record<string, unknown>;
    delete event["type"];
    event["specversion"] = "0.3";
    expect(failure(JSON.stringify(event)).issues).toEqual([
      'specversion: must be CloudEvents 1.0 ("1.0" or a 1.0.x release)',
      "type: Invalid input: expected string, received undefined",
    ]);
    expect(failure("   ").message).toBe("The event is empty.");
    expect(failure("{oops").message).toContain("not valid JSON");
    expect(failure(new Uint8Array([0x7b, 0xff, 0x7d])).message).toBe(
      "The event is not valid UTF-8 text.",
    );
  });
});

describe("XzeprEventError", () => {
  it("is an XzatomaError XZEPR_EVENT_INVALID with the issues in fields", () => {
    const error = failure("{}");
    expect(isXzatomaError(error)).toBe(true);
    expect(error).toBeInstanceOf(XzatomaError);
    expect(isErrorCode(error.code)).toBe(true);
    expect(error.code).toBe("XZEPR_EVENT_INVALID");
    expect(error.issues.length).toBeGreaterThan(0);
    expect(error.fields).toEqual({ issues: error.issues });
  });
});
