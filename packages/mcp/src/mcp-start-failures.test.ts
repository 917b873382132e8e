// Stdio servers that cannot start say why, with real processes: a command that is not there,
// a server that exits before the handshake (its status and the last lines of its standard
// error), one that never finishes the handshake. And a server that starts gets exactly the
// environment it is given (the fixture env-server reports its own).
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createToolRegistry } from "@xzatoma/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpConfigSchema } from "./mcp-config.js";
import { createMcpManager } from "./mcp-manager.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const envServer = path.join(here, "__fixtures__", "env-server.ts");

let directory: string;

beforeAll(() => {
  directory = realpathSync(mkdtempSync(path.join(tmpdir(), "xzatoma-mcp-start-")));
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

/** Starts one server and gives its state and error (the manager's warning, too). */
async function startOne(server: Record<string, unknown>, connectTimeoutSeconds = 60) {
  const warnings: string[] = [];
  const manager = createMcpManager({
    config: mcpConfigSchema.parse({
      servers: { one: server },
      connect_timeout_seconds: connectTimeoutSeconds,
    }),
    cwd: directory,
    warn: (message) => warnings.push(message),
  });
  try {
    await manager.connect();
    const [status] = manager.servers();
    return { state: status?.state, error: status?.error ?? "", warnings };
  } finally {
    await manager.close();
  }
}

describe("a stdio server that cannot start", () => {
  it("names a command that is not on PATH, and the PATH it looked in", async () => {
    const outcome = await startOne({
      command: "xzatoma-no-such-mcp-server",
      env: { PATH: "/nonexistent/bin" },
    });
    expect(outcome.state).toBe("failed");
    expect(outcome.error).toBe(
      "the command 'xzatoma-no-such-mcp-server' was not found on PATH (/nonexistent/bin)",
    );
    expect(outcome.warnings).toEqual([
      "MCP server 'one' (mcp.servers.one) could not be started and is left out: the command 'xzatoma-no-such-mcp-server' was not found on PATH (/nonexistent/bin)",
    ]);
  });

  it("names a program path that is not there", async () => {
    const missing = path.join(directory, "no-such-server");
    const outcome = await startOne({ command: missing });
    expect(outcome.error).toBe(`the command '${missing}' was not found`);
  });

  it("gives the exit status and the last lines of standard error of a server that exits", async () => {
    const script = [
      "for (let i = 1; i <= 14; i++) console.error('line ' + i);",
      "console.error('npm error network request to the registry failed: ECONNREFUSED');",
      "process.exit(3);",
    ].join(" ");
    const outcome = await startOne({ command: process.execPath, args: ["-e", script] });
    expect(outcome.state).toBe("failed");
    // The last ten lines only.
    expect(outcome.error).toBe(
      "the server exited with status 3 before the MCP handshake finished; the last lines of its standard error: " +
        "line 6 | line 7 | line 8 | line 9 | line 10 | line 11 | line 12 | line 13 | line 14 | " +
        "npm error network request to the registry failed: ECONNREFUSED",
    );
  });

  it("says so when a server that exits wrote nothing", async () => {
    const outcome = await startOne({ command: process.execPath, args: ["-e", "process.exit(7)"] });
    expect(outcome.error).toBe(
      "the server exited with status 7 before the MCP handshake finished, and wrote nothing to its standard error",
    );
  });

  it("says that a server never finished the handshake within mcp.connect_timeout_seconds, with what it wrote", async () => {
    const script =
      "console.error('downloading the package through the proxy'); setInterval(() => {}, 1000);";
    const outcome = await startOne({ command: process.execPath, args: ["-e", script] }, 1);
    expect(outcome.state).toBe("failed");
    expect(outcome.error).toMatch(
      /^the server started but did not finish the MCP handshake within 1 s \(mcp\.connect_timeout_seconds; .*\); the last lines of its standard error: downloading the package through the proxy$/,
    );
  });
});

describe("a stdio server's environment", () => {
  it("is the SDK's safe few, then what the runtime lets through, then the server's own env", async () => {
    const manager = createMcpManager({
      config: mcpConfigSchema.parse({
        servers: {
          env: {
            command: process.execPath,
            args: [envServer],
            env: { ONLY_THIS_SERVER: "yes", HTTPS_PROXY: "http://127.0.0.1:3129" },
            trusted: true,
          },
        },
      }),
      cwd: directory,
      env: { NOT_PASSED: "no", OPENAI_API_KEY: "sk-not-for-servers" },
      serverEnv: { HTTPS_PROXY: "http://127.0.0.1:3128", NODE_EXTRA_CA_CERTS: "/etc/ca.pem" },
    });
    try {
      const registry = createToolRegistry();
      for (const tool of await manager.connect()) registry.register(tool);
      const result = await registry.execute(
        { toolCallId: "call-1", toolName: "env__environment", input: "{}" },
        // A person says yes (an MCP tool is opaque: trusted or not, a person may allow it).
        {
          signal: new AbortController().signal,
          approve: () => ({ approved: true, byPerson: true }),
        },
      );
      expect(result.error ?? "").toBe("");
      const seen = JSON.parse(result.output) as Record<string, string>;
      expect(seen["ONLY_THIS_SERVER"]).toBe("yes");
      // The server's own env wins over what the runtime passes.
      expect(seen["HTTPS_PROXY"]).toBe("http://127.0.0.1:3129");
      expect(seen["NODE_EXTRA_CA_CERTS"]).toBe("/etc/ca.pem");
      expect(seen["PATH"]).toBe(process.env["PATH"]);
      expect(seen).not.toHaveProperty("NOT_PASSED");
      expect(seen).not.toHaveProperty("OPENAI_API_KEY");
    } finally {
      await manager.close();
    }
  });
});
