import { describe, expect, it } from "vitest";
import { ERROR_CODES, describeError, isErrorCode, isXzatomaError, XzatomaError } from "./index.js";

describe("XzatomaError", () => {
  it("carries a code, fields and a cause", () => {
    const cause = new Error("socket closed");
    const error = new XzatomaError("PROVIDER_UNAVAILABLE", "Cannot reach Ollama.", {
      cause,
      fields: { provider: "ollama", baseUrl: "http://127.0.0.1:11434" },
    });
    expect(error.code).toBe("PROVIDER_UNAVAILABLE");
    expect(error.fields).toEqual({ provider: "ollama", baseUrl: "http://127.0.0.1:11434" });
    expect(error.cause).toBe(cause);
    expect(isXzatomaError(error)).toBe(true);
  });

  it("is recognised by its marker, not by instanceof, so a second copy of the package counts", () => {
    const foreign = Object.assign(new Error("from another copy"), {
      [Symbol.for("xzatoma.error")]: true,
      code: "URL_BLOCKED",
    });
    expect(isXzatomaError(foreign)).toBe(true);
    expect(isXzatomaError(new Error("plain"))).toBe(false);
    expect(isXzatomaError({ code: "URL_BLOCKED", message: "not an Error" })).toBe(false);
  });

  it("keeps the code set closed and free of duplicates", () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect(isErrorCode("PATH_PROTECTED")).toBe(true);
    expect(isErrorCode("SOMETHING_ELSE")).toBe(false);
  });

  it("describes any thrown value in one line", () => {
    expect(describeError(new Error("boom"))).toBe("boom");
    expect(describeError("text")).toBe("text");
    expect(describeError({ a: 1 })).toBe('{"a":1}');
  });
});
