// The branches the smoke suite's scripted model does not reach: errors thrown before a run,
// the context limit, an interrupted run, a passed run despite refused calls, and the
// difference between a missing call and an answer the case checks alone.
import { describe, expect, it } from "vitest";
import { classifyFailure, looksLikeTextToolCall, type CaseOutcome } from "./classify-failure.js";

const base: CaseOutcome = {
  stopReason: "completed",
  answer: "",
  calls: [],
  tools: ["read_file", "write_file"],
  unmet: [],
  needsTool: false,
};

describe("classifyFailure", () => {
  it("passes a completed run that met every expectation, even with a refused call on the way", () => {
    const refused = {
      name: "terminal",
      known: true,
      success: false,
      invalidInput: false,
      refused: true,
    };
    expect(classifyFailure({ ...base, calls: [refused] })).toBeUndefined();
  });

  it("tells the model's server failing from XZatoma failing", () => {
    expect(
      classifyFailure({
        ...base,
        stopReason: undefined,
        error: { code: "PROVIDER_UNAVAILABLE", message: "connect ECONNREFUSED\nmore" },
      }),
    ).toEqual({ kind: "provider-error", detail: "PROVIDER_UNAVAILABLE: connect ECONNREFUSED" });
    expect(
      classifyFailure({
        ...base,
        stopReason: "error",
        error: { code: "HISTORY_UNAVAILABLE", message: "disk full" },
      }),
    ).toEqual({ kind: "crash", detail: "HISTORY_UNAVAILABLE: disk full" });
    expect(
      classifyFailure({
        ...base,
        stopReason: "error",
        error: { code: "CONTEXT_LENGTH_EXCEEDED", message: "too long" },
      })?.kind,
    ).toBe("limit");
    expect(classifyFailure({ ...base, stopReason: "aborted" })).toEqual({
      kind: "crash",
      detail: "the run was interrupted",
    });
    expect(classifyFailure({ ...base, stopReason: "tool-budget" })?.kind).toBe("limit");
  });

  it("calls a wrong answer without any call an expectation unless the case needs a file or a call", () => {
    const unmet = ['the answer does not contain "42"'];
    expect(classifyFailure({ ...base, unmet })?.kind).toBe("expectation");
    expect(classifyFailure({ ...base, unmet, needsTool: true })?.kind).toBe("no-tool-call");
  });
});

describe("looksLikeTextToolCall", () => {
  it("sees a JSON object naming an offered tool, not prose or other names", () => {
    expect(looksLikeTextToolCall('{"name": "write_file", "arguments": {}}', ["write_file"])).toBe(
      true,
    );
    expect(looksLikeTextToolCall('I would call {"tool":"read_file"} next', ["read_file"])).toBe(
      true,
    );
    expect(looksLikeTextToolCall("I wrote the file with write_file.", ["write_file"])).toBe(false);
    expect(looksLikeTextToolCall('{"name": "delete_all"}', ["write_file"])).toBe(false);
  });
});
