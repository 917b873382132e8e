import { readFileSync } from "node:fs";
import { isErrorCode, isXzatomaError, XzatomaError } from "@xzatoma/errors";
import { parseXzeprEvent } from "@xzatoma/xzepr";
import { describe, expect, it } from "vitest";
import { createEventFilter, EventFilterError } from "./event-filter.js";

const event = parseXzeprEvent(
  readFileSync(
    new URL("../../xzepr/src/__fixtures__/build_success_event.json", import.meta.url),
    "utf8",
  ),
);

describe("event filter", () => {
  it("passes an event that meets every criterion", () => {
    const filter = createEventFilter({
      successOnly: true,
      eventTypes: ["deployment.success", "build.success"],
      sourcePattern: "^xzepr\\.event\\.receiver\\.",
      platformId: "local",
      package: "xzatoma-demo",
      apiVersion: "v1",
    });
    expect(filter(event)).toBeUndefined();
  });

  it("says why an event is skipped", () => {
    expect(createEventFilter({ eventTypes: ["deployment.success"] })(event)).toBe(
      "type 'build.success' is not one of deployment.success",
    );
    expect(createEventFilter({ successOnly: true })({ ...event, success: false })).toBe(
      "the event did not succeed",
    );
    expect(createEventFilter({ sourcePattern: "github" })(event)).toContain(
      "does not match /github/",
    );
    expect(createEventFilter({ package: "other" })(event)).toBe(
      "package 'xzatoma-demo' is not 'other'",
    );
  });

  it("matches the source case-sensitively unless the pattern starts with (?i)", () => {
    expect(createEventFilter({ sourcePattern: "^(?:XZEPR)\\." })(event)).toContain(
      "does not match",
    );
    expect(createEventFilter({ sourcePattern: "(?i)^(?:XZEPR)\\." })(event)).toBeUndefined();
  });

  it("refuses an invalid source pattern when built, naming the key", () => {
    expect(() => createEventFilter({ sourcePattern: "([" })).toThrow(EventFilterError);
    expect(() => createEventFilter({ sourcePattern: "([" })).toThrow(
      /filters\.source_pattern: '\(\[' is not a valid/,
    );
  });

  it("throws an XzatomaError EVENT_FILTER_INVALID with the key in fields", () => {
    let caught: unknown;
    try {
      createEventFilter({ sourcePattern: "([" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EventFilterError);
    expect(caught).toBeInstanceOf(XzatomaError);
    expect(isXzatomaError(caught)).toBe(true);
    const error = caught as EventFilterError;
    expect(isErrorCode(error.code)).toBe(true);
    expect(error.code).toBe("EVENT_FILTER_INVALID");
    expect(error.fields).toEqual({ key: "filters.source_pattern" });
  });
});
