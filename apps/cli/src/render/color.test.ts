import { expect, it } from "vitest";
import { shouldUseColor } from "./color.js";

const terminal = { isTTY: true };

it("colours a terminal", () => {
  expect(shouldUseColor(terminal, {})).toBe(true);
});

it("never colours with NO_COLOR set to any non-empty value", () => {
  expect(shouldUseColor(terminal, { NO_COLOR: "1" })).toBe(false);
  expect(shouldUseColor(terminal, { NO_COLOR: "false" })).toBe(false);
  // An empty NO_COLOR means it is not set (no-color.org).
  expect(shouldUseColor(terminal, { NO_COLOR: "" })).toBe(true);
});

it("never colours a pipe, a file or a dumb terminal", () => {
  expect(shouldUseColor({ isTTY: false }, {})).toBe(false);
  expect(shouldUseColor({}, {})).toBe(false);
  expect(shouldUseColor(terminal, { TERM: "dumb" })).toBe(false);
});
