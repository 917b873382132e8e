import { describe, expect, it } from "vitest";
import { parseRewindArguments } from "./rewind-arguments.js";
import { parseSlashCommand } from "./slash-command.js";

describe("/rewind and /fork", () => {
  it.each([
    ["", { turn: undefined, side: "both", force: false }],
    ["3", { turn: 3, side: "both", force: false }],
    ["3 code", { turn: 3, side: "code", force: false }],
    ["chat 2", { turn: 2, side: "chat", force: false }],
    ["1 both --force", { turn: 1, side: "both", force: true }],
    ["4 --code-only", { turn: 4, side: "code", force: false }],
    ["4 --chat-only force", { turn: 4, side: "chat", force: true }],
  ])("/rewind %s", (argument, expected) => {
    expect(parseRewindArguments(argument)).toEqual({ kind: "rewind", ...expected });
  });

  it("names what it does not understand", () => {
    expect(parseRewindArguments("0")).toContain("turns count from 1");
    expect(parseRewindArguments("2 files")).toContain("'files' is not a turn");
    expect(parseRewindArguments("2 3")).toContain("'3' is not a turn");
    expect(parseRewindArguments("code")).toContain("name the turn");
  });

  it("is a chat command", () => {
    expect(parseSlashCommand("/rewind 2 chat")).toEqual({
      kind: "rewind",
      turn: 2,
      side: "chat",
      force: false,
    });
    expect(parseSlashCommand("/fork")).toEqual({ kind: "fork" });
    expect(parseSlashCommand("/fork now")).toMatchObject({ kind: "unknown" });
    expect(parseSlashCommand("/rewind x")).toMatchObject({
      kind: "unknown",
      message: expect.stringContaining("Usage: /rewind") as unknown,
    });
  });
});
