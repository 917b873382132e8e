import { describe, expect, it } from "vitest";
import { mcpToolName, uniqueToolName } from "./tool-names.js";

describe("MCP tool names", () => {
  it("joins server and tool with a double underscore, replacing what providers refuse", () => {
    expect(mcpToolName("github", "create_issue")).toBe("github__create_issue");
    expect(mcpToolName("my.server", "get sum/v2")).toBe("my_server__get_sum_v2");
    expect(mcpToolName("1password", "read")).toBe("mcp_1password__read");
  });

  it("keeps long names within 64 characters and apart from each other", () => {
    const tool = "t".repeat(80);
    const first = mcpToolName("server", `${tool}a`);
    const second = mcpToolName("server", `${tool}b`);
    expect(first).toHaveLength(64);
    expect(second).toHaveLength(64);
    expect(first).not.toBe(second);
  });

  it("numbers names that would collide", () => {
    const taken = new Set(["a__b"]);
    expect(uniqueToolName("a__b", taken)).toBe("a__b_2");
    expect(uniqueToolName("a__b", taken)).toBe("a__b_3");
    expect(uniqueToolName("x".repeat(64), taken)).toHaveLength(64);
    expect(uniqueToolName("x".repeat(64), taken)).toBe(`${"x".repeat(62)}_2`);
  });
});
