import { expect, it } from "vitest";
import { exitCodeForSignal, exitCodeForStop } from "./exit-codes.js";

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
  ] as const) {
    expect(exitCodeForStop(reason)).toBe(3);
  }
  expect(exitCodeForStop("quota")).toBe(4);
  expect(exitCodeForStop("aborted")).toBe(130);
});

it("maps a signal that interrupts a run to 128 + its number, as shells do", () => {
  expect(exitCodeForSignal("SIGINT")).toBe(130);
  expect(exitCodeForSignal("SIGTERM")).toBe(143);
  expect(exitCodeForSignal("SIGHUP")).toBe(129);
});
