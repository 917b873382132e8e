import type { ApprovalRequest } from "@xzatoma/core";
import { describe, expect, it } from "vitest";
import { editableField, withEditedField } from "./approval-edit.js";

const request = (toolName: string, input: unknown): ApprovalRequest => ({
  toolCallId: "1",
  toolName,
  access: "write",
  input,
  verdict: "confirm",
  reason: "It needs a yes.",
});

describe("editableField", () => {
  it("offers a terminal call's command line as text", () => {
    expect(editableField(request("terminal", { command: "ls -la", cwd: "." }))).toEqual({
      key: "command",
      value: "ls -la",
      retype: false,
    });
  });

  it("offers a write's path, not its content or the call's JSON", () => {
    const write = request("write_file", { content: "a\nb\n", path: "notes.txt" });
    const field = editableField(write);
    expect(field).toEqual({ key: "path", value: "notes.txt", retype: false });
    expect(withEditedField(write, field!, "other.txt")).toEqual({
      content: "a\nb\n",
      path: "other.txt",
    });
  });

  it("asks for a value the line editor cannot show to be typed anew", () => {
    expect(editableField(request("terminal", { command: "echo a\nrm -rf x" }))).toEqual({
      key: "command",
      value: "",
      retype: true,
    });
  });

  it("has nothing to edit in a call without text", () => {
    expect(editableField(request("x", { count: 3 }))).toBeUndefined();
  });
});
