import { isErrorCode, isXzatomaError, XzatomaError } from "@xzatoma/errors";
import { describe, expect, it } from "vitest";
import { PathOutsideWorkspaceError, PathProtectedError } from "./path-guard-error.js";

describe("the path guard's errors", () => {
  it("PathOutsideWorkspaceError is an XzatomaError that keeps path and refusal", () => {
    const error = new PathOutsideWorkspaceError("'/etc' is outside", "/etc", "outside-workspace");
    expect(isXzatomaError(error)).toBe(true);
    expect(error).toBeInstanceOf(XzatomaError);
    expect(isErrorCode(error.code)).toBe(true);
    expect(error.code).toBe("PATH_OUTSIDE_WORKSPACE");
    expect(error.name).toBe("PathOutsideWorkspaceError");
    expect(error).toMatchObject({ path: "/etc", refusal: "outside-workspace" });
    expect(error.fields).toEqual({ path: "/etc", refusal: "outside-workspace" });
  });

  it("PathProtectedError is an XzatomaError that keeps path and refusal", () => {
    const error = new PathProtectedError("'.git/hooks/x' is protected", ".git/hooks/x");
    expect(isXzatomaError(error)).toBe(true);
    expect(error).toBeInstanceOf(XzatomaError);
    expect(isErrorCode(error.code)).toBe(true);
    expect(error.code).toBe("PATH_PROTECTED");
    expect(error.name).toBe("PathProtectedError");
    expect(error).toMatchObject({ path: ".git/hooks/x", refusal: "protected" });
    expect(error.fields).toEqual({ path: ".git/hooks/x", refusal: "protected" });
  });
});
