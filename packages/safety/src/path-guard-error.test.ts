import { isErrorCode, isXzatomaError, XzatomaError } from "@xzatoma/errors";
import { describe, expect, it } from "vitest";
import { PathOutsideWorkspaceError, PathProtectedError } from "./path-guard-error.js";

describe("the path guard's errors", () => {
  it.each([
    {
      error: new PathOutsideWorkspaceError("'/etc' is outside", "/etc", "outside-workspace"),
      code: "PATH_OUTSIDE_WORKSPACE",
      name: "PathOutsideWorkspaceError",
      facts: { path: "/etc", refusal: "outside-workspace" },
    },
    {
      error: new PathProtectedError("'.git/hooks/x' is protected", ".git/hooks/x"),
      code: "PATH_PROTECTED",
      name: "PathProtectedError",
      facts: { path: ".git/hooks/x", refusal: "protected" },
    },
  ])("$name is an XzatomaError that keeps path and refusal", ({ error, code, name, facts }) => {
    expect(isXzatomaError(error)).toBe(true);
    expect(error).toBeInstanceOf(XzatomaError);
    expect(isErrorCode(error.code)).toBe(true);
    expect(error.code).toBe(code);
    expect(error.name).toBe(name);
    expect(error).toMatchObject(facts);
    expect(error.fields).toEqual(facts);
  });
});
