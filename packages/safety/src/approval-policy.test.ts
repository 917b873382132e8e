import { describe, expect, it } from "vitest";
import {
  decideApproval,
  isToolAvailable,
  type ApprovalModes,
  type ApprovalSubject,
} from "./approval-policy.js";

const modes = (
  chatMode: "planning" | "write",
  safetyMode: "safe" | "yolo",
  executionMode: "interactive" | "restricted" | "full",
): ApprovalModes => ({
  chatMode,
  safetyMode,
  executionMode,
});
const call = (
  access: ApprovalSubject["access"],
  verdict: ApprovalSubject["verdict"],
): ApprovalSubject => ({
  toolName: access === "execute" ? "terminal" : "write_file",
  access,
  verdict,
  reason: "because.",
});

describe("approval policy", () => {
  it("blocks a blocked call in every mode, YOLO and full autonomous included", () => {
    for (const chat of ["planning", "write"] as const)
      for (const safety of ["safe", "yolo"] as const)
        for (const execution of ["interactive", "restricted", "full"] as const) {
          expect(
            decideApproval(modes(chat, safety, execution), call("execute", "block")).decision,
          ).toBe("block");
        }
  });

  it("keeps planning mode read-only whatever the tool says", () => {
    expect(decideApproval(modes("planning", "yolo", "full"), call("write", "allow"))).toMatchObject(
      {
        decision: "block",
        reason: expect.stringContaining("planning mode is read-only"),
      },
    );
    expect(
      decideApproval(modes("planning", "safe", "restricted"), call("read", "allow")).decision,
    ).toBe("allow");
    expect(isToolAvailable("planning", "execute")).toBe(false);
    expect(isToolAvailable("planning", "read")).toBe(true);
    expect(isToolAvailable("write", "execute")).toBe(true);
  });

  it.each([
    // [safety, execution, access, verdict, expected]
    ["safe", "interactive", "execute", "allow", "confirm"],
    ["safe", "interactive", "write", "allow", "allow"],
    ["safe", "interactive", "write", "confirm", "confirm"],
    ["safe", "restricted", "execute", "allow", "allow"],
    ["safe", "restricted", "execute", "confirm", "block"],
    ["safe", "full", "execute", "confirm", "allow"],
    ["yolo", "interactive", "execute", "allow", "allow"],
    ["yolo", "restricted", "write", "confirm", "allow"],
  ] as const)("%s x %s: %s judged %s is %s", (safety, execution, access, verdict, expected) => {
    expect(decideApproval(modes("write", safety, execution), call(access, verdict)).decision).toBe(
      expected,
    );
  });

  it("tells the model why a confirmation is refused when no one can answer", () => {
    expect(
      decideApproval(modes("write", "safe", "restricted"), call("execute", "confirm")).reason,
    ).toBe(
      "because. It needs a person's approval, and restricted autonomous mode has no one to ask; do it another way, or the user can allow it by running in full autonomous mode.",
    );
  });

  it("applies a mode change to the very next decision", () => {
    const current = {
      chatMode: "write" as "planning" | "write",
      safetyMode: "safe" as const,
      executionMode: "interactive" as const,
    };
    expect(decideApproval(current, call("write", "confirm")).decision).toBe("confirm");
    current.chatMode = "planning";
    expect(decideApproval(current, call("write", "confirm")).decision).toBe("block");
  });

  it.each([
    ["safe", "interactive", "confirm"],
    ["yolo", "interactive", "confirm"],
    ["safe", "full", "block"],
    ["yolo", "full", "block"],
    ["safe", "restricted", "block"],
  ] as const)(
    "a call that needs a person: %s x %s is %s (no mode turns it into an allow)",
    (safety, execution, expected) => {
      const outcome = decideApproval(modes("write", safety, execution), {
        ...call("write", "confirm"),
        requiresPerson: true,
      });
      expect(outcome.decision).toBe(expected);
      if (expected === "block") expect(outcome.reason).toContain("Only a person's explicit yes");
    },
  );
});
