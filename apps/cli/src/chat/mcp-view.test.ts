import type { McpServerReport } from "@xzatoma/runtime";
import { describe, expect, it } from "vitest";
import { describeMcpServers } from "./mcp-view.js";
import { parseSlashCommand, SLASH_HELP } from "./slash-command.js";

const server = (overrides: Partial<McpServerReport>): McpServerReport => ({
  name: "files",
  transport: "stdio",
  state: "connected",
  tools: [],
  toolNames: [],
  ...overrides,
});

describe("/mcp", () => {
  it("is a chat command listed in the help", () => {
    expect(parseSlashCommand("/mcp")).toEqual({ kind: "mcp" });
    expect(SLASH_HELP).toContain("/mcp");
  });

  it("shows each server's state and tools", () => {
    expect(
      describeMcpServers([
        server({ toolNames: ["files__read", "files__write"] }),
        server({ name: "docs", transport: "http", state: "failed", error: "HTTP 401" }),
        server({ name: "later", state: "idle" }),
      ]),
    ).toBe(
      [
        "files (stdio): connected, 2 tools",
        "  files__read",
        "  files__write",
        "docs (http): failed: HTTP 401",
        "later (stdio): not started yet (starts with the first message)",
      ].join("\n"),
    );
  });

  it("says when no server is configured", () => {
    expect(describeMcpServers(undefined)).toContain("No MCP servers configured");
  });
});
