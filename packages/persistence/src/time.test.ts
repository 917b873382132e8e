import { describe, expect, it } from "vitest";
import { toRfc3339 } from "./time.js";

describe("toRfc3339", () => {
  it("formats in UTC to the second", () => {
    expect(toRfc3339(new Date("2026-11-22T03:00:00.999Z"))).toBe("2026-11-22T03:00:00Z");
    expect(toRfc3339(new Date("2026-11-21T22:00:00-05:00"))).toBe("2026-11-22T03:00:00Z");
  });

  it("rejects an invalid date", () => {
    expect(() => toRfc3339(new Date("nope"))).toThrow(RangeError);
  });
});
