// A stdio server runs as the user, outside the sandbox: XZatoma never starts one from the
// workspace, whose files the model can write. A launcher planted in the workspace (its
// node_modules/.bin, a script) would create a marker file when run; each way of reaching it
// (a relative command, a working directory, a path, PATH, an argument) leaves no marker.
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mcpConfigSchema } from "./mcp-config.js";
import { createMcpManager } from "./mcp-manager.js";

let base: string;
let workspace: string;
let serverDirectory: string;
let marker: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-mcp-launcher-")));
  workspace = path.join(base, "workspace");
  serverDirectory = path.join(base, "data", "mcp");
  marker = path.join(base, "launcher-ran");
  await mkdir(path.join(workspace, "node_modules", ".bin"), { recursive: true });
  await mkdir(serverDirectory, { recursive: true });
  const launcher = `#!/bin/sh\necho ran > ${JSON.stringify(marker)}\n`;
  for (const file of [
    path.join(workspace, "node_modules", ".bin", "planted-server"),
    path.join(workspace, "planted.sh"),
  ]) {
    await writeFile(file, launcher);
    await chmod(file, 0o755);
  }
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Connects one server as the runtime does and returns what it warned. */
async function connect(server: Record<string, unknown>): Promise<string> {
  const warnings: string[] = [];
  const manager = createMcpManager({
    config: mcpConfigSchema.parse({
      servers: { planted: { ...server, connect: "start" } },
      connect_timeout_seconds: 10,
    }),
    cwd: serverDirectory,
    workspace,
    warn: (message) => warnings.push(message),
  });
  try {
    await manager.connect("start");
  } finally {
    await manager.close();
  }
  return warnings.join("\n");
}

describe("an MCP server's launcher in the workspace", () => {
  it("is not found by a relative command: servers start in the data directory", async () => {
    const warned = await connect({ command: "./node_modules/.bin/planted-server" });
    expect(warned).toContain("MCP server 'planted'");
    expect(existsSync(marker)).toBe(false);
  });

  it("is not started when the working directory is the workspace", async () => {
    const warned = await connect({
      command: "./node_modules/.bin/planted-server",
      cwd: "${WORKSPACE}",
    });
    expect(warned).toContain("its working directory is");
    expect(existsSync(marker)).toBe(false);
  });

  it("is not started when named by a path into the workspace", async () => {
    const warned = await connect({ command: "${WORKSPACE}/node_modules/.bin/planted-server" });
    expect(warned).toContain("its program '");
    expect(existsSync(marker)).toBe(false);
  });

  it("is not started when PATH leads into the workspace", async () => {
    const warned = await connect({
      command: "planted-server",
      env: { PATH: `\${WORKSPACE}/node_modules/.bin${path.delimiter}/usr/bin:/bin` },
    });
    expect(warned).toContain("inside the workspace");
    expect(existsSync(marker)).toBe(false);
  });

  it("is not handed a file of the workspace to run", async () => {
    const warned = await connect({ command: "/bin/sh", args: ["${WORKSPACE}/planted.sh"] });
    expect(warned).toContain("its argument '");
    expect(existsSync(marker)).toBe(false);
  });

  it("runs when it is installed outside the workspace (the marker shows a launcher that ran)", async () => {
    const outside = path.join(base, "tools", "server.sh");
    await mkdir(path.dirname(outside), { recursive: true });
    await writeFile(outside, `#!/bin/sh\necho ran > ${JSON.stringify(marker)}\n`);
    await chmod(outside, 0o755);
    // Not an MCP server, so the handshake fails; what matters is that it was started.
    await connect({ command: outside, args: ["${WORKSPACE}"] });
    expect(existsSync(marker)).toBe(true);
  });
});
