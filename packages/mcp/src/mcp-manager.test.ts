// The manager against real MCP servers: the reference servers over stdio, the fixture server
// over stdio and over streamable HTTP on 127.0.0.1. Each server starts once for the file.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createToolRegistry, type ApprovalRequest, type ToolRegistry } from "@xzatoma/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixtureHttpServer, type FixtureHttpServer } from "./__fixtures__/http-server.js";
import { mcpConfigSchema } from "./mcp-config.js";
import { createMcpManager, type McpManager } from "./mcp-manager.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = (name: string) => path.join(here, "..", "node_modules", ".bin", name);
const fixture = path.join(here, "__fixtures__", "stdio-server.ts");

let workspace: string;
let http: FixtureHttpServer;
let manager: McpManager;
const warnings: string[] = [];
let registry: ToolRegistry;
const approvals: ApprovalRequest[] = [];

const call = (toolName: string, input: unknown, signal = new AbortController().signal) =>
  registry.execute(
    { toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) },
    {
      signal,
      // A person answers yes to everything asked here.
      approve: (request) => {
        approvals.push(request);
        return { approved: true, byPerson: true };
      },
    },
  );

beforeAll(async () => {
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), "xzatoma-mcp-")));
  writeFileSync(path.join(workspace, "notes.txt"), "the notes of the test\n");
  http = await startFixtureHttpServer();
  const config = mcpConfigSchema.parse({
    mcpServers: {
      everything: { command: bin("mcp-server-everything"), args: ["stdio"] },
      files: { command: bin("mcp-server-filesystem"), args: [workspace] },
      fixture: {
        command: process.execPath,
        args: [fixture],
        timeout_seconds: 2,
        trusted_tools: ["add"],
      },
      remote: {
        type: "http",
        url: http.url,
        headers: { Authorization: "Bearer ${FIXTURE_TOKEN}" },
        include_tools: ["add", "fail"],
      },
      broken: { command: path.join(workspace, "no-such-server") },
      off: { command: "never-started", enabled: false },
    },
    connect_timeout_seconds: 60,
  });
  manager = createMcpManager({
    config: mcpConfigSchema.parse(config),
    cwd: workspace,
    env: { ...process.env, FIXTURE_TOKEN: "s3cret" },
    warn: (message) => warnings.push(message),
    reservedNames: ["read_file"],
  });
  registry = createToolRegistry({ maxOutputBytes: 4096 });
  for (const tool of await manager.connect()) registry.register(tool);
}, 120_000);

afterAll(async () => {
  await manager?.close();
  await http?.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe("MCP servers from configuration", () => {
  it("lists each server's tools under <server>__<tool>, and reports a server that cannot start once", () => {
    const names = registry.names();
    expect(names).toContain("everything__echo");
    expect(names).toContain("files__read_text_file");
    expect(names).toContain("fixture__sleep");
    expect(names.filter((name) => name.startsWith("remote__")).sort()).toEqual([
      "remote__add",
      "remote__fail",
    ]);
    for (const name of names) expect(name).toMatch(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/);
    const states = Object.fromEntries(manager.servers().map((s) => [s.name, s.state]));
    expect(states).toEqual({
      everything: "connected",
      files: "connected",
      fixture: "connected",
      remote: "connected",
      broken: "failed",
      off: "disabled",
    });
    expect(warnings.filter((warning) => warning.includes("'broken'"))).toHaveLength(1);
    expect(warnings.join("\n")).not.toContain("'off'");
  });

  it("sends the model the server's own JSON Schema", () => {
    const echo = registry.specifications().find((spec) => spec.name === "everything__echo");
    expect(echo?.inputSchema).toMatchObject({
      type: "object",
      properties: { message: { type: "string" } },
      required: ["message"],
    });
    const add = registry.specifications().find((spec) => spec.name === "fixture__add");
    expect(add?.inputSchema).toMatchObject({
      properties: { a: { type: "number" }, b: { type: "number" } },
    });
    expect(echo?.description).toContain("from the MCP server 'everything'");
  });

  it("calls a tool of server-everything and returns its text, describing an image", async () => {
    const echoed = await call("everything__echo", { message: "hello over stdio" });
    expect(echoed).toMatchObject({ success: true });
    expect(echoed.output).toContain("hello over stdio");
    const image = await call("everything__get-tiny-image", {});
    expect(image.success).toBe(true);
    expect(image.output).toMatch(/\[image image\/png, \d+ bytes, not shown\]/);
  });

  it("reads a file through server-filesystem, and needs a person for every call unless the tool is trusted", async () => {
    approvals.length = 0;
    const read = await call("files__read_text_file", { path: path.join(workspace, "notes.txt") });
    expect(read.output).toContain("the notes of the test");
    expect(
      approvals.map((request) => [request.access, request.verdict, request.requiresPerson]),
    ).toEqual([["write", "confirm", true]]);
    await call("fixture__add", { a: 2, b: 3 });
    expect(approvals[1]).toMatchObject({ toolName: "fixture__add", verdict: "allow" });
  });

  it("refuses an untrusted tool that a mode, not a person, approves: server-filesystem cannot write .git/config", async () => {
    mkdirSync(path.join(workspace, ".git"), { recursive: true });
    writeFileSync(path.join(workspace, ".git", "config"), "[core]\n");
    // What full autonomous mode gives: an approval without a person behind it.
    const result = await registry.execute(
      {
        toolCallId: "call-unattended-write",
        toolName: "files__write_file",
        input: JSON.stringify({
          path: path.join(workspace, ".git", "config"),
          content: "[core]\n\tfsmonitor = touch pwned\n",
        }),
      },
      { signal: new AbortController().signal, approve: () => ({ approved: true }) },
    );
    expect(result.success).toBe(false);
    expect(result.error).toContain("only a person's explicit yes can allow it");
    expect(readFileSync(path.join(workspace, ".git", "config"), "utf8")).toBe("[core]\n");
  });

  it("talks streamable HTTP with the configured headers, the environment filled in", async () => {
    const sum = await call("remote__add", { a: 20, b: 22 });
    expect(sum).toMatchObject({ success: true, output: "42" });
    expect(http.authorizations).toContain("Bearer s3cret");
  });

  it("turns a result with isError into a failed tool result", async () => {
    for (const name of ["fixture__fail", "remote__fail"]) {
      const failed = await call(name, { why: "the disk is full" });
      expect(failed.success).toBe(false);
      expect(failed.error).toContain("failed because the disk is full");
    }
  });

  it("cuts a result over the output cap", async () => {
    const big = await call("fixture__big", { bytes: 100_000 });
    expect(big).toMatchObject({ success: true, truncated: true });
    expect(big.output.length).toBe(4096);
    expect(big.metadata["originalBytes"]).toBe(100_000);
  });

  it("stops a call at the server's timeout_seconds and cancels it at the server", async () => {
    const slow = await call("fixture__sleep", { ms: 60_000 });
    expect(slow).toMatchObject({ success: false, metadata: { timedOut: true } });
    // The server is still usable after a cancelled call.
    expect(await call("fixture__add", { a: 1, b: 1 })).toMatchObject({ output: "2" });
  });

  it("honours the run's abort signal", async () => {
    const controller = new AbortController();
    const pending = call("fixture__sleep", { ms: 60_000 }, controller.signal);
    setTimeout(() => controller.abort(), 200);
    expect(await pending).toMatchObject({ success: false, metadata: { cancelled: true } });
  });

  it("reads a resource of a server, and names what is wrong with a bad one", async () => {
    const resource = await manager.readResource(
      "everything",
      "demo://resource/static/document/architecture.md",
    );
    expect(resource.text.length).toBeGreaterThan(100);
    expect(resource.mimeTypes).toEqual(["text/markdown"]);
    await expect(manager.readResource("nowhere", "demo://x")).rejects.toThrow(
      "there is no MCP server 'nowhere' in mcp.servers",
    );
    await expect(manager.readResource("broken", "demo://x")).rejects.toThrow(
      "the MCP server 'broken' could not be started",
    );
    await expect(manager.readResource("off", "demo://x")).rejects.toThrow("is disabled");
  });

  it("turns a server that dies mid-call into an error, reports it once, keeps the others, and starts it again at the next call", async () => {
    const before = warnings.length;
    const crashed = await call("fixture__crash", {});
    expect(crashed.success).toBe(false);
    expect(crashed.error).toContain("ended during the call");
    expect(crashed.error).toContain("crashing on purpose");
    expect(warnings.slice(before).filter((w) => w.includes("'fixture' stopped"))).toHaveLength(1);
    expect(manager.servers().find((s) => s.name === "fixture")?.state).toBe("failed");
    expect(await call("everything__echo", { message: "still here" })).toMatchObject({
      success: true,
    });
    expect(await call("fixture__add", { a: 4, b: 5 })).toMatchObject({ output: "9" });
    expect(manager.servers().find((s) => s.name === "fixture")?.state).toBe("connected");
  });
});
