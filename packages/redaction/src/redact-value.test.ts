import { describe, expect, it } from "vitest";
import { redactValue } from "./index.js";

describe("redactValue", () => {
  it("redacts every string of a structure and keeps its shape, keys and other values", () => {
    const event = {
      type: "tool-result",
      turn: 2,
      ok: false,
      result: { output: "PGPASSWORD=pgs3cretval psql", lines: ["fine", "token: abcd1234efgh"] },
      nothing: null,
    };
    expect(redactValue(event)).toEqual({
      type: "tool-result",
      turn: 2,
      ok: false,
      result: { output: "PGPASSWORD=[REDACTED] psql", lines: ["fine", "token: [REDACTED]"] },
      nothing: null,
    });
    expect(event.result.output).toBe("PGPASSWORD=pgs3cretval psql");
  });

  it("keeps an error's name, message and fields, the message redacted", () => {
    const error = Object.assign(new Error("login failed: password=hunter2x"), { code: "E_AUTH" });
    expect(redactValue({ error })).toEqual({
      error: { name: "Error", message: "login failed: password=[REDACTED]", code: "E_AUTH" },
    });
  });

  it("takes another redactor", () => {
    expect(redactValue(["a", "b"], (text) => text.toUpperCase())).toEqual(["A", "B"]);
  });
});
