import { describe, expect, it } from "vitest";
import { createApprovalHandler } from "./approval-handler.js";
import type { ApprovalModes } from "./approval-policy.js";

/** The modes a session holds and switches. */
type SessionModes = { -readonly [K in keyof ApprovalModes]: ApprovalModes[K] };

const request = (verdict: "allow" | "confirm", access: "write" | "execute" = "execute") => ({
  toolCallId: "1",
  toolName: access === "execute" ? "terminal" : "write_file",
  access,
  input: {},
  verdict,
  reason: "runs make.",
});

describe("session approval", () => {
  it("refuses what needs a person in restricted mode, and allows it in full autonomous mode", async () => {
    const modes: SessionModes = {
      chatMode: "write",
      safetyMode: "safe",
      executionMode: "restricted",
    };
    const handler = createApprovalHandler(modes);
    expect(await handler(request("confirm"))).toMatchObject({ approved: false });
    modes.executionMode = "full";
    expect(await handler(request("confirm"))).toMatchObject({ approved: true });
  });

  it("asks the person when the policy says confirm, and follows the answer", async () => {
    const modes: SessionModes = {
      chatMode: "write",
      safetyMode: "safe",
      executionMode: "interactive",
    };
    const asked: string[] = [];
    const handler = createApprovalHandler(modes, async (call) => {
      asked.push(call.toolName);
      return { approved: false, reason: "the user said no" };
    });
    expect(await handler(request("allow"))).toEqual({
      approved: false,
      reason: "the user said no",
      byPerson: false,
    });
    expect(asked).toEqual(["terminal"]);
    modes.chatMode = "planning";
    expect(await handler(request("allow", "write"))).toMatchObject({
      approved: false,
      reason: expect.stringContaining("planning mode"),
    });
    expect(asked).toHaveLength(1);
  });

  it("marks only the person's own yes as a person's, and asks even in YOLO for calls only a person may approve", async () => {
    const modes: SessionModes = {
      chatMode: "write",
      safetyMode: "yolo",
      executionMode: "interactive",
    };
    const asked: string[] = [];
    const handler = createApprovalHandler(modes, async (call) => {
      asked.push(call.toolName);
      return { approved: true };
    });
    expect(await handler(request("confirm"))).toMatchObject({ approved: true });
    expect(asked).toEqual([]);
    expect(await handler({ ...request("confirm"), requiresPerson: true })).toEqual({
      approved: true,
      byPerson: true,
    });
    expect(asked).toEqual(["terminal"]);
    modes.executionMode = "full";
    expect(await handler({ ...request("confirm"), requiresPerson: true })).toMatchObject({
      approved: false,
      reason: expect.stringContaining("Only a person's explicit yes"),
    });
  });

  it("treats a prompt that fails as a no, never as a yes", async () => {
    const modes: SessionModes = {
      chatMode: "write",
      safetyMode: "safe",
      executionMode: "interactive",
    };
    const handler = createApprovalHandler(modes, async () => {
      throw new Error("the terminal closed");
    });
    expect(await handler(request("confirm"))).toMatchObject({
      approved: false,
      reason: expect.stringContaining("the terminal closed"),
    });
  });

  it("does not let an answer claim to be a person's refusal or skip the mark", async () => {
    const modes: SessionModes = {
      chatMode: "write",
      safetyMode: "safe",
      executionMode: "interactive",
    };
    const handler = createApprovalHandler(modes, async () => ({ approved: false, byPerson: true }));
    expect(await handler(request("confirm"))).toEqual({ approved: false, byPerson: false });
  });
});
