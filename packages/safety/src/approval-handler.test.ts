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
  ...(verdict === "confirm" ? { requiresPerson: true } : {}),
});

describe("session approval", () => {
  it("refuses an escalation when no one is asked, and asks once the policy says so", async () => {
    const modes: SessionModes = { chatMode: "write", approvalPolicy: "never" };
    const asked: string[] = [];
    const handler = createApprovalHandler(modes, async (call) => {
      asked.push(call.toolName);
      return { approved: true };
    });
    expect(await handler(request("confirm"))).toMatchObject({ approved: false });
    expect(await handler(request("allow"))).toMatchObject({ approved: true });
    expect(asked).toEqual([]);
    modes.approvalPolicy = "on-escalation";
    expect(await handler(request("confirm"))).toEqual({ approved: true, byPerson: true });
    expect(asked).toEqual(["terminal"]);
  });

  it("asks the person when the policy says confirm, and follows the answer", async () => {
    const modes: SessionModes = { chatMode: "write", approvalPolicy: "untrusted" };
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

  it("does not ask about a provably read-only command even when untrusted", async () => {
    const modes: SessionModes = { chatMode: "write", approvalPolicy: "untrusted" };
    const handler = createApprovalHandler(modes, async () => ({ approved: false }));
    expect(await handler({ ...request("allow"), readOnly: true })).toMatchObject({
      approved: true,
    });
  });

  it("refuses an escalation when there is no one to ask, whatever the policy", async () => {
    const handler = createApprovalHandler({ chatMode: "write", approvalPolicy: "on-escalation" });
    expect(await handler(request("confirm"))).toMatchObject({
      approved: false,
      reason: expect.stringContaining("No one is available"),
    });
  });

  it("treats a prompt that fails as a no, never as a yes", async () => {
    const modes: SessionModes = { chatMode: "write", approvalPolicy: "on-escalation" };
    const handler = createApprovalHandler(modes, async () => {
      throw new Error("the terminal closed");
    });
    expect(await handler(request("confirm"))).toMatchObject({
      approved: false,
      reason: expect.stringContaining("the terminal closed"),
    });
  });

  it("does not let an answer claim to be a person's refusal or skip the mark", async () => {
    const modes: SessionModes = { chatMode: "write", approvalPolicy: "on-escalation" };
    const handler = createApprovalHandler(modes, async () => ({ approved: false, byPerson: true }));
    expect(await handler(request("confirm"))).toEqual({ approved: false, byPerson: false });
  });
});
