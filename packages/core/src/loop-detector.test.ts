import { describe, expect, it } from "vitest";
import { canonicalJson, RepeatedCallDetector, toolCallSignature } from "./loop-detector.js";

const call = (name: string, input: unknown = {}) => ({ name, input });

/** The index of the call that the detector refuses when `calls` come one by one, or -1. */
function refusedAt(times: number, calls: readonly { name: string; input: unknown }[]): number {
  const detector = new RepeatedCallDetector(times);
  for (const [index, next] of calls.entries()) {
    if (detector.find([next])) return index;
    detector.record([next]);
  }
  return -1;
}

describe("canonicalJson", () => {
  it("ignores key order at every depth but keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 }),
    );
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson({ a: "1" })).not.toBe(canonicalJson({ a: 1 }));
  });

  it("tells a tool's name and its arguments apart", () => {
    expect(toolCallSignature(call("read", { path: "a" }))).not.toBe(
      toolCallSignature(call("write", { path: "a" })),
    );
    expect(toolCallSignature(call("read", "{not json"))).not.toBe(
      toolCallSignature(call("read", {})),
    );
  });
});

describe("RepeatedCallDetector", () => {
  const a = call("read", { path: "a" });
  const b = call("read", { path: "b" });
  const c = call("read", { path: "c" });
  const d = call("read", { path: "d" });

  it.each([
    ["the same call a fourth time", [a, a, a, a], 3],
    ["two alternating calls, starting their fourth round", [a, b, a, b, a, b, a], 6],
    ["a cycle of three calls, starting its fourth round", [a, b, c, a, b, c, a, b, c, a], 9],
    ["the same call after other work", [c, d, a, a, a, a], 5],
  ])("refuses %s", (_label, calls, index) => {
    expect(refusedAt(3, calls)).toBe(index);
  });

  it.each([
    ["the same call three times", [a, a, a]],
    ["a read between changes", [a, b, a, c, a, d, a]],
    ["alternating calls for three rounds", [a, b, a, b, a, b]],
    ["calls that all differ", [a, b, c, d]],
  ])("allows %s", (_label, calls) => {
    expect(refusedAt(3, calls)).toBe(-1);
  });

  it("checks the calls of one response together with the run's earlier calls", () => {
    const detector = new RepeatedCallDetector(2);
    detector.record([a, a]);
    expect(detector.find([b, a])).toBeUndefined();
    expect(detector.find([a, b])).toEqual({ index: 0, toolName: "read", period: 1, times: 2 });
  });
});
