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
    expect(mcpConfigSchema.parse({})).toEqual({ servers: {}, connect_timeout_seconds: 30 });
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
