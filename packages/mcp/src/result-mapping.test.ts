import { describe, expect, it } from "vitest";
import { mapCallResult } from "./result-mapping.js";

describe("MCP tool results", () => {
  it("joins text, describes binary content and keeps embedded resources' text", () => {
    const result = mapCallResult(
      {
        content: [
          { type: "text", text: "first" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "resource", resource: { uri: "file:///a.txt", text: "inside" } },
          { type: "resource", resource: { uri: "file:///b.bin", blob: "AAAAAA==" } },
          { type: "resource_link", uri: "file:///c", name: "c" },
        ],
      },
      "s__t",
    );
    expect(result.success).toBe(true);
    expect(result.output).toBe(
      [
        "first",
        "[image image/png, 3 bytes, not shown]",
        "[resource file:///a.txt]\ninside",
        "[resource file:///b.bin (binary, 4 bytes), not shown]",
        "[resource link file:///c (c)]",
      ].join("\n\n"),
    );
  });

  it("shows structured content when no block has text", () => {
    expect(mapCallResult({ content: [], structuredContent: { sum: 3 } }, "s__t").output).toBe(
      '{\n  "sum": 3\n}',
    );
  });

  it("makes isError a failure the model reads", () => {
    const result = mapCallResult(
      { content: [{ type: "text", text: "no such repo" }], isError: true },
      "gh__get",
    );
    expect(result).toMatchObject({
      success: false,
      error: "'gh__get' reported an error: no such repo",
    });
  });
});
