import { describe, expect, it } from "vitest";
import { bwrapPathOf } from "./sandbox-binary.js";

describe("bwrapPathOf", () => {
  it("names the binary XZATOMA_BWRAP gives, trimmed", () => {
    expect(bwrapPathOf({ XZATOMA_BWRAP: " /opt/bubblewrap/bwrap " })).toEqual({
      bwrapPath: "/opt/bubblewrap/bwrap",
    });
  });

  it("leaves the default search when it is unset or blank", () => {
    expect(bwrapPathOf({})).toEqual({});
    expect(bwrapPathOf({ XZATOMA_BWRAP: "  " })).toEqual({});
  });
});
