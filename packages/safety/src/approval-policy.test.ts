import { describe, expect, it } from "vitest";
import {
  APPROVAL_POLICIES,
  approvalPolicyFromLegacy,
  decideApproval,
  isToolAvailable,
  type ApprovalPolicy,
  type ApprovalSubject,
} from "./approval-policy.js";

const write = (approvalPolicy: ApprovalPolicy) => ({ chatMode: "write" as const, approvalPolicy });
const call = (
  access: ApprovalSubject["access"],
  verdict: ApprovalSubject["verdict"],
  extra: Partial<ApprovalSubject> = {},
): ApprovalSubject => ({
  toolName: access === "execute" ? "terminal" : "write_file",
  access,
  verdict,
  reason: "because.",
  ...extra,
});

describe("approval policy", () => {
  it("refuses a forbidden call under every policy", () => {
    for (const policy of APPROVAL_POLICIES)
      for (const chatMode of ["planning", "write"] as const)
        expect(
          decideApproval({ chatMode, approvalPolicy: policy }, call("execute", "block")).decision,
        ).toBe("block");
  });

  it("keeps planning mode read-only whatever the tool says", () => {
    expect(
      decideApproval({ chatMode: "planning", approvalPolicy: "never" }, call("write", "allow")),
    ).toMatchObject({
      decision: "block",
      reason: expect.stringContaining("planning mode is read-only"),
    });
    expect(
      decideApproval({ chatMode: "planning", approvalPolicy: "untrusted" }, call("read", "allow"))
        .decision,
    ).toBe("allow");
    expect(isToolAvailable("planning", "execute")).toBe(false);
    expect(isToolAvailable("planning", "read")).toBe(true);
  });

  it("untrusted asks before anything not provably read-only", () => {
    expect(decideApproval(write("untrusted"), call("execute", "allow")).decision).toBe("confirm");
    expect(decideApproval(write("untrusted"), call("write", "allow")).decision).toBe("confirm");
    expect(
      decideApproval(write("untrusted"), call("execute", "allow", { readOnly: true })).decision,
    ).toBe("allow");
    expect(decideApproval(write("untrusted"), call("read", "allow")).decision).toBe("allow");
    expect(
      decideApproval(write("untrusted"), call("execute", "confirm", { requiresPerson: true }))
        .decision,
    ).toBe("confirm");
  });

  it("on-escalation asks only for escalations; never refuses them with a reason the model can read", () => {
    expect(decideApproval(write("on-escalation"), call("execute", "allow")).decision).toBe("allow");
    expect(
      decideApproval(write("on-escalation"), call("execute", "confirm", { requiresPerson: true }))
        .decision,
    ).toBe("confirm");
    expect(decideApproval(write("never"), call("execute", "allow")).decision).toBe("allow");
    const refused = decideApproval(
      write("never"),
      call("execute", "confirm", { requiresPerson: true }),
    );
    expect(refused.decision).toBe("block");
    expect(refused.reason).toContain("no one is asked");
  });

  it("maps the old modes: interactive asks before every change, the rest ask only for escalations", () => {
    expect(approvalPolicyFromLegacy({ executionMode: "interactive" })).toBe("untrusted");
    expect(approvalPolicyFromLegacy({ executionMode: "interactive", safetyMode: "yolo" })).toBe(
      "on-escalation",
    );
    expect(approvalPolicyFromLegacy({ executionMode: "restricted" })).toBe("on-escalation");
    expect(approvalPolicyFromLegacy({ executionMode: "full", safetyMode: "yolo" })).toBe(
      "on-escalation",
    );
    expect(approvalPolicyFromLegacy({})).toBe("on-escalation");
  });
});
