import { describe, expect, it } from "vitest";
import { mcpConfigSchema, transportOf } from "./mcp-config.js";

describe("the mcp configuration section", () => {
  it("takes entries pasted from other agent CLIs' mcpServers", () => {
    const config = mcpConfigSchema.parse({
      mcpServers: {
        // Claude Code and Cursor
        files: { type: "stdio", command: "npx", args: ["-y", "server"], env: { A: "1" } },
        docs: { type: "http", url: "https://example.com/mcp", headers: { X: "y" } },
        // Gemini CLI
        gem: {
          httpUrl: "http://127.0.0.1:9/mcp",
          trust: true,
          includeTools: ["a"],
          excludeTools: ["b"],
        },
      },
    });
    expect(config.connect_timeout_seconds).toBe(30);
    expect(config.servers["files"]).toMatchObject({
      command: "npx",
      args: ["-y", "server"],
      enabled: true,
      connect: "lazy",
      timeout_seconds: 60,
      trusted: false,
    });
    expect(transportOf(config.servers["files"]!)).toBe("stdio");
    expect(transportOf(config.servers["docs"]!)).toBe("http");
    expect(config.servers["gem"]).toMatchObject({
      url: "http://127.0.0.1:9/mcp",
      trusted: true,
      include_tools: ["a"],
      exclude_tools: ["b"],
    });
  });

  it("defaults to no servers", () => {
    expect(mcpConfigSchema.parse({})).toEqual({
      servers: {},
      connect_timeout_seconds: 30,
      tool_search: { mode: "auto" },
    });
  });

  it.each([
    [{ servers: { x: {} } }, "set command (a stdio server) or url"],
    [{ servers: { x: { command: "a", url: "http://h/" } } }, "not both"],
    [{ servers: { x: { type: "http", command: "a" } } }, "type http needs a url"],
    [{ servers: { x: { url: "ftp://h/" } } }, "servers.x.url"],
    [{ servers: { x: { url: "http://user:pw@h/" } } }, "servers.x.url"],
    [{ servers: { "bad name": { command: "a" } } }, "server name"],
    [{ servers: { x: { command: "a", timeout: 5 } } }, "timeout"],
    [{ servers: { x: { command: "a", connect: "eager" } } }, "servers.x.connect"],
  ])("refuses %j", (value, expected) => {
    const result = mcpConfigSchema.safeParse(value);
    expect(result.success).toBe(false);
    const text = result.error?.issues
      .map((issue) => `${issue.path.join(".")}: ${issue.message} ${JSON.stringify(issue)}`)
      .join("\n");
    expect(text).toContain(expected);
  });
});

describe("mcp.tool_search and always_load", () => {
  it("reads the mode, the budget and always_load as true or a list", () => {
    const config = mcpConfigSchema.parse({
      tool_search: { mode: "always", budget_tokens: 2000 },
      servers: { a: { command: "a", always_load: true }, b: { command: "b", always_load: ["x"] } },
    });
    expect(config.tool_search).toEqual({ mode: "always", budget_tokens: 2000 });
    expect(config.servers["a"]?.always_load).toBe(true);
    expect(config.servers["b"]?.always_load).toEqual(["x"]);
  });

  it.each([
    [{ tool_search: { mode: "sometimes" } }, "tool_search.mode"],
    [{ tool_search: { budget_tokens: 0 } }, "tool_search.budget_tokens"],
    [{ servers: { x: { command: "a", always_load: "yes" } } }, "servers.x.always_load"],
  ])("refuses %j, naming the key", (value, expected) => {
    const result = mcpConfigSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join(".")).join("\n")).toContain(
      expected,
    );
  });
});
