// MCP servers started by the built `xzatoma`: what of the user's environment reaches a real
// stdio server (proxies and CA bundles as the shell has them, no secret), and why a server
// that cannot start did not, in `xzatoma mcp list`.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  startScriptedOllama,
  type Scenario,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { runCli } from "./cli.test-support.js";

const ENV_SERVER = fileURLToPath(
  new URL("../../../packages/mcp/src/__fixtures__/env-server.ts", import.meta.url),
);

let base: string;
let home: string;
let project: string;
let server: ScriptedOllama | undefined;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-mcp-env-")));
  home = path.join(base, "home");
  project = path.join(base, "project");
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("an MCP server's environment", () => {
  it("has the shell's proxies (both spellings) and CA bundles, and none of its secrets", async () => {
    // The model calls the server's one tool, then answers with what it returned.
    const scenario: Scenario = (request) => {
      const result = request.messages.findLast((message) => message.role === "tool");
      return result
        ? { content: `ENV ${result.content}` }
        : { toolCalls: [{ name: "env__environment", arguments: {} }] };
    };
    server = await startScriptedOllama({ scenario });
    const config = path.join(base, "env.yaml");
    await writeFile(
      config,
      JSON.stringify({
        provider: { type: "ollama" },
        mcp: { servers: { env: { command: process.execPath, args: [ENV_SERVER], trusted: true } } },
      }),
    );
    const shell = {
      PATH: process.env["PATH"] ?? "",
      HOME: home,
      OLLAMA_HOST: server.url,
      HTTPS_PROXY: "http://proxy.internal:3128",
      https_proxy: "http://proxy.internal:3128",
      http_proxy: "http://proxy.internal:3128",
      NO_PROXY: "127.0.0.1,localhost,.internal",
      no_proxy: "127.0.0.1,localhost,.internal",
      SSL_CERT_FILE: "/etc/ssl/certs/corp-bundle.crt",
      REQUESTS_CA_BUNDLE: "/etc/ssl/certs/corp-bundle.crt",
      npm_config_registry: "https://registry.internal/",
      GITHUB_TOKEN: "ghp_shouldnotreachtheserver0000000000",
      OPENAI_API_KEY: "sk-shouldnotreachtheserver",
      CORP_DB_PASSWORD: "hunter2-hunter2",
      npm_config__authToken: "npm-token-not-for-servers",
      UNRELATED_SETTING: "not passed",
    };
    const outcome = await runCli(
      ["--config", config, "run", "--mode", "write", "What is your environment?"],
      {
        cwd: project,
        env: shell,
      },
    );
    expect(outcome.code).toBe(0);
    const json = /ENV (\{.*\})/s.exec(outcome.stdout)?.[1];
    expect(json).toBeDefined();
    const seen = JSON.parse(json!) as Record<string, string>;
    for (const name of [
      "HTTPS_PROXY",
      "https_proxy",
      "http_proxy",
      "NO_PROXY",
      "no_proxy",
      "SSL_CERT_FILE",
      "REQUESTS_CA_BUNDLE",
      "npm_config_registry",
      "PATH",
      "HOME",
    ]) {
      expect(seen[name], name).toBe(shell[name as keyof typeof shell]);
    }
    for (const name of [
      "GITHUB_TOKEN",
      "OPENAI_API_KEY",
      "CORP_DB_PASSWORD",
      "npm_config__authToken",
      "UNRELATED_SETTING",
      "OLLAMA_HOST",
    ]) {
      expect(seen, name).not.toHaveProperty(name);
    }
  });
});

describe("xzatoma mcp list with servers that cannot start", () => {
  it("says why each failed: not found, exited with its status and last lines, timed out", async () => {
    const config = path.join(base, "failing.yaml");
    const exits =
      "console.error('Starting...'); console.error('Error: cannot reach https://registry.internal/: ECONNREFUSED'); process.exit(2)";
    const hangs = "console.error('still downloading'); setInterval(() => {}, 1000)";
    await writeFile(
      config,
      JSON.stringify({
        provider: { type: "openai", openai: { base_url: "http://127.0.0.1:9/v1" } },
        mcp: {
          connect_timeout_seconds: 2,
          servers: {
            missing: { command: "xzatoma-no-such-mcp-launcher" },
            exits: { command: process.execPath, args: ["-e", exits] },
            hangs: { command: process.execPath, args: ["-e", hangs] },
          },
        },
      }),
    );
    const outcome = await runCli(["mcp", "list", "--config", config], {
      cwd: project,
      env: { PATH: process.env["PATH"] ?? "", HOME: home },
    });
    expect(outcome.code).toBe(1);
    const lines = outcome.stdout.split("\n");
    expect(lines).toContain(
      `  missing (stdio): failed: the command 'xzatoma-no-such-mcp-launcher' was not found on PATH (${process.env["PATH"] ?? ""})`,
    );
    expect(lines).toContain(
      "  exits (stdio): failed: the server exited with status 2 before the MCP handshake finished; the last lines of its standard error: Starting... | Error: cannot reach https://registry.internal/: ECONNREFUSED",
    );
    expect(lines.find((line) => line.startsWith("  hangs (stdio): failed: "))).toMatch(
      /did not finish the MCP handshake within 2 s \(mcp\.connect_timeout_seconds; .*\); the last lines of its standard error: still downloading$/,
    );
  });
});
