import { expect, it } from "vitest";
import { exitCodeForStop } from "./exit-codes.js";

it("maps every stop reason to the documented exit code", () => {
  expect(exitCodeForStop("completed")).toBe(0);
  expect(exitCodeForStop("error")).toBe(1);
  for (const reason of [
    "max-turns",
    "timeout",
    "tool-budget",
    "tool-calls-per-step",
    "repeated-tool-calls",
    "length",
    "quota",
  ] as const) {
    expect(exitCodeForStop(reason)).toBe(3);
  }
  expect(exitCodeForStop("aborted")).toBe(130);
});
