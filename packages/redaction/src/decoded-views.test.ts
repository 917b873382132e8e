import { describe, expect, it } from "vitest";
import { backslashUnescaped, percentDecoded } from "./decoded-views.js";

describe("percentDecoded", () => {
  it("decodes %XX and maps every decoded offset back", () => {
    const original = "a%3Db%2Bc";
    const view = percentDecoded(original)!;
    expect(view.text).toBe("a=b+c");
    expect([0, 1, 2, 3, 4, 5].map((index) => view.originalIndex(index))).toEqual([
      0, 1, 4, 5, 8, 9,
    ]);
  });

  it("is undefined without an escape, and leaves a lone % alone", () => {
    expect(percentDecoded("100% sure")).toBeUndefined();
    expect(percentDecoded("50%%2B")?.text).toBe("50%+");
  });
});

describe("backslashUnescaped", () => {
  it("decodes JSON escapes and maps offsets back", () => {
    const original = String.raw`{\"k\":\"v\u0041\"}\n`;
    const view = backslashUnescaped(original)!;
    expect(view.text).toBe('{"k":"vA"}\n');
    const start = view.text.indexOf("vA");
    expect(original.slice(view.originalIndex(start), view.originalIndex(start + 2))).toBe(
      String.raw`v\u0041`,
    );
  });

  it("is undefined without an escape", () => {
    expect(backslashUnescaped("C:/no/escapes here")).toBeUndefined();
  });
});
