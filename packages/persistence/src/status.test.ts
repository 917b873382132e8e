import { describe, expect, it } from "vitest";
import { statusForStopReason } from "./status.js";

describe("statusForStopReason", () => {
  it("maps the agent's stop reasons to conversation statuses", () => {
    expect(statusForStopReason("completed")).toBe("completed");
    expect(statusForStopReason("aborted")).toBe("interrupted");
    expect(statusForStopReason("error")).toBe("failed");
    expect(statusForStopReason("max-turns")).toBe("stopped");
    expect(statusForStopReason("timeout")).toBe("stopped");
  });
});
