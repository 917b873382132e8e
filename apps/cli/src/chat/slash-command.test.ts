import { describe, expect, it } from "vitest";
import { formatPrompt, parseSlashCommand } from "./slash-command.js";

describe("chat commands", () => {
  it.each([
    ["/mode write", { kind: "mode", mode: "write" }],
    ["/planning", { kind: "mode", mode: "planning" }],
    ["/write", { kind: "mode", mode: "write" }],
    ["/approvals", { kind: "approvals", policy: undefined }],
    ["/approvals never", { kind: "approvals", policy: "never" }],
    ["/approvals untrusted", { kind: "approvals", policy: "untrusted" }],
    ["/yolo", { kind: "approvals", policy: "on-escalation" }],
    ["/safe", { kind: "approvals", policy: "on-escalation" }],
    ["/context", { kind: "context", summary: false }],
    ["/context summary", { kind: "context", summary: true }],
    ["/compact", { kind: "compact", focus: "" }],
    ["/compact the parser's API", { kind: "compact", focus: "the parser's API" }],
    ["/model qwen2.5:7b", { kind: "model", name: "qwen2.5:7b" }],
    ["exit", { kind: "exit" }],
    ["/help", { kind: "help" }],
  ])("%s", (line, expected) => {
    expect(parseSlashCommand(line)).toEqual(expected);
  });

  it("leaves messages alone and explains mistakes", () => {
    expect(parseSlashCommand("read /etc/hosts please")).toBeUndefined();
    expect(parseSlashCommand("/mode fast")).toMatchObject({
      kind: "unknown",
      message: "Usage: /mode planning|write",
    });
    expect(parseSlashCommand("/frobnicate")).toMatchObject({
      message: "Unknown command '/frobnicate'. Type /help for the list.",
    });
  });

  it("shows mode, approval policy and model in the prompt", () => {
    expect(
      formatPrompt({
        mode: "planning",
        approvalPolicy: "on-escalation",
        provider: "ollama",
        model: "llama3.2:3b",
      }),
    ).toBe("[PLANNING][ON-ESCALATION][ollama: llama3.2:3b] >>> ");
  });
});
