import { expect, it } from "vitest";
import { bufferOf } from "./input-buffer.js";
import { keyAction } from "./key-bindings.js";

it("sends with Enter and adds a line with Ctrl-J, Alt-Enter and Shift-Enter (CSI 13;2u)", () => {
  expect(keyAction("\r", { name: "return" })).toEqual({ kind: "submit" });
  expect(keyAction("\n", { name: "enter" })).toEqual({ kind: "newline" });
  expect(keyAction(undefined, { name: "return", meta: true })).toEqual({ kind: "newline" });
  expect(keyAction(undefined, { name: "undefined", code: "[13;2u" })).toEqual({ kind: "newline" });
});

it("edits as a shell does, and types printable characters only", () => {
  const action = keyAction(undefined, { name: "w", ctrl: true });
  expect(action?.kind === "edit" && action.apply(bufferOf("one two")).text).toBe("one ");
  expect(keyAction("é", {})).toEqual({ kind: "insert", text: "é" });
  expect(keyAction("\x07", { name: "g", ctrl: true })).toBeUndefined();
  expect(keyAction(undefined, { name: "f5", sequence: "\x1b[15~" })).toBeUndefined();
  expect(keyAction("\x03", { name: "c", ctrl: true })).toEqual({ kind: "interrupt" });
  expect(keyAction("\x04", { name: "d", ctrl: true })).toEqual({ kind: "end" });
  expect(keyAction("\x1a", { name: "z", ctrl: true })).toEqual({ kind: "suspend" });
});
