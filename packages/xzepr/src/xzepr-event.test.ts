import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseXzeprEvent, XzeprEventError } from "./xzepr-event.js";

const fixture = (name: string) =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");

function failure(value: string): XzeprEventError {
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

  it("accepts receiver summaries spelled with receiver_type", () => {
    const event = JSON.parse(fixture("build_success_event.json")) as {
      data: Record<string, unknown>;
    };
    event.data["event_receivers"] = [
      { id: "r1", name: "ci", receiver_type: "webhook", owner_id: "u1" },
    ];
    expect(parseXzeprEvent(JSON.stringify(event)).data.event_receivers).toHaveLength(1);
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
  });
});
