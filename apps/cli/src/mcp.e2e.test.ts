// `xzatoma mcp list` and `/mcp` in chat: the built binary as a child process, with the fixture
// MCP server of @xzatoma/mcp (run by Node over stdio) and one that cannot start. Run
// `nx build cli` first (the test target depends on it).
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type Outcome } from "./cli.test-support.js";

const FIXTURE = fileURLToPath(
  new URL("../../../packages/mcp/src/__fixtures__/stdio-server.ts", import.meta.url),
);

let base: string;
let home: string;
let withServers: string;
let without: string;

function xzatoma(args: readonly string[], input?: string): Promise<Outcome> {
  return runCli(args, {
    // The workspace is a project beside the home directory: a server never starts from inside it.
    cwd: path.join(base, "project"),
    env: { PATH: process.env["PATH"] ?? "", HOME: home },
    ...(input === undefined ? {} : { input }),
  });
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-mcp-")));
  home = path.join(base, "home");
  await mkdir(home, { recursive: true });
  await mkdir(path.join(base, "project"), { recursive: true });
  withServers = path.join(base, "servers.yaml");
  without = path.join(base, "none.yaml");
  const provider = { type: "openai", openai: { base_url: "http://127.0.0.1:9/v1" } };
  await writeFile(
    withServers,
    JSON.stringify({
      provider,
      mcp: {
        mcpServers: {
          fixture: { command: process.execPath, args: [FIXTURE], include_tools: ["add", "fail"] },
          broken: { command: path.join(base, "no-such-server") },
          later: { url: "http://127.0.0.1:9/mcp", enabled: false },
        },
      },
    }),
  );
  await writeFile(without, JSON.stringify({ provider }));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("xzatoma mcp list", () => {
  it("says when no server is configured", async () => {
    expect(await xzatoma(["mcp", "list", "--config", without])).toEqual({
      code: 0,
      stdout: "No MCP servers configured (mcp.servers).\n",
      stderr: "",
    });
  });

  it("starts each server and lists its state and tools, failing when one could not start", async () => {
    const outcome = await xzatoma(["mcp", "list", "--config", withServers]);
    expect(outcome.code).toBe(1);
    const lines = outcome.stdout.split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "MCP servers (3):",
      "  fixture (stdio): connected, 2 tools",
      "    fixture__fail",
      "    fixture__add",
      expect.stringMatching(
        /^ {2}broken \(stdio\): failed: the command '.*no-such-server' was not found$/,
      ),
    ]);
    expect(lines[5]).toBe("  later (http): disabled");
  });

  it("escapes control sequences a failing server wrote to its stderr", async () => {
    const noisy = path.join(base, "noisy.yaml");
    // OSC 52 (clipboard), a title change, then a carriage return and an erased line.
    const script =
      "process.stderr.write('x\\u001b]52;c;ZXZpbA==\\u0007\\u001b]0;T\\u0007\\r\\u001b[2Kfake'); process.exit(1)";
    await writeFile(
      noisy,
      JSON.stringify({
        provider: { type: "openai", openai: { base_url: "http://127.0.0.1:9/v1" } },
        mcp: { servers: { noisy: { command: process.execPath, args: ["-e", script] } } },
      }),
    );
    const outcome = await xzatoma(["mcp", "list", "--config", noisy]);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toContain("noisy (stdio): failed:");
    expect(outcome.stdout).toContain("fake");
    for (const raw of ["\u0007", "\u001b", "\r"]) expect(outcome.stdout).not.toContain(raw);
  });

  it("prints JSON with --json", async () => {
    const outcome = await xzatoma(["mcp", "list", "--json", "--config", withServers]);
    const json = JSON.parse(outcome.stdout) as { servers: Record<string, unknown>[] };
    expect(json.servers).toEqual([
      {
        name: "fixture",
        transport: "stdio",
        state: "connected",
        server: { name: "xzatoma-fixture", version: "1.0.0" },
        tools: ["fixture__fail", "fixture__add"],
      },
      expect.objectContaining({ name: "broken", state: "failed", error: expect.any(String) }),
      { name: "later", transport: "http", state: "disabled", tools: [] },
    ]);
  });
});

describe("/mcp in chat", () => {
  it("lists the servers, not started before the first message", async () => {
    const outcome = await xzatoma(["chat", "--config", withServers], "/mcp\nexit\n");
    expect(outcome.stdout).toContain(
      "fixture (stdio): not started yet (starts with the first message)",
    );
    expect(outcome.stdout).toContain("later (http): disabled");
  });

  it("tells the person when a server could not start at the first message", async () => {
    const outcome = await xzatoma(["chat", "--config", withServers], "hello\nexit\n");
    expect(outcome.stderr).toContain(
      "MCP server 'broken' (mcp.servers.broken) could not be started and is left out",
    );
  });
});
