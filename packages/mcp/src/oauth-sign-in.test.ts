// OAuth against a real authorization server: the SDK's auth router with its demo provider in
// front of the fixture server, on 127.0.0.1. The "browser" follows the authorization URL's
// redirect back to XZatoma's callback listener.
import { createToolRegistry } from "@xzatoma/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixtureHttpServer } from "./__fixtures__/http-server.js";
import { startFixtureOAuthServer, type FixtureOAuthServer } from "./__fixtures__/oauth-server.js";
import { mcpConfigSchema } from "./mcp-config.js";
import { createMcpManager } from "./mcp-manager.js";
import { signInKey, type McpSecretStore } from "./oauth-sign-in.js";

let server: FixtureOAuthServer;

/** A store that keeps entries in memory, in place of the OS keyring. */
function memoryStore(): McpSecretStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    get: async (key) => entries.get(key),
    set: async (key, value) => entries.set(key, value),
    delete: async (key) => entries.delete(key),
  };
}

/** Opens the authorization URL as a browser would, following its redirect to the callback. */
async function browser(_server: string, url: URL): Promise<void> {
  const response = await fetch(url, { redirect: "manual" });
  const location = response.headers.get("location");
  if (!location) throw new Error(`no redirect from the authorization server (${response.status})`);
  // Not awaited by the SDK's flow: the callback is answered while XZatoma waits for the code.
  void fetch(location);
}

const config = () => mcpConfigSchema.parse({ servers: { remote: { url: server.url } } });

beforeAll(async () => {
  server = await startFixtureOAuthServer();
});

afterAll(async () => {
  await server?.close();
});

describe("OAuth for streamable HTTP servers", () => {
  const store = memoryStore();

  it("signs in through the browser, keeps the token in the store, and calls tools with it", async () => {
    const shown: string[] = [];
    const manager = createMcpManager({
      config: config(),
      cwd: process.cwd(),
      oauth: {
        store,
        authorize: async (name, url) => {
          shown.push(name);
          await browser(name, url);
        },
      },
    });
    try {
      const registry = createToolRegistry();
      for (const tool of await manager.connect()) registry.register(tool);
      expect(manager.servers()[0]).toMatchObject({ state: "connected" });
      expect(shown).toEqual(["remote"]);
      const sum = await registry.execute(
        { toolCallId: "1", toolName: "remote__add", input: '{"a":1,"b":2}' },
        // The server is not trusted: the call needs a person's yes, given here.
        {
          signal: new AbortController().signal,
          approve: () => ({ approved: true, byPerson: true }),
        },
      );
      expect(sum).toMatchObject({ success: true, output: "3" });
    } finally {
      await manager.close();
    }
    const saved = JSON.parse(store.entries.get(signInKey("remote")) ?? "{}") as {
      tokens?: { access_token?: string };
    };
    expect(saved.tokens?.access_token).toEqual(expect.any(String));
    expect(server.authorizations).toBe(1);
  });

  it("reuses the stored token without asking again, headless too", async () => {
    const manager = createMcpManager({ config: config(), cwd: process.cwd(), oauth: { store } });
    try {
      await manager.connect();
      expect(manager.servers()[0]).toMatchObject({ state: "connected" });
    } finally {
      await manager.close();
    }
    expect(server.authorizations).toBe(1);
  });

  it("reads nothing from the store for a server that does not ask for OAuth", async () => {
    const open = await startFixtureHttpServer();
    const untouched = memoryStore();
    const reads: string[] = [];
    const manager = createMcpManager({
      config: mcpConfigSchema.parse({ servers: { open: { url: open.url } } }),
      cwd: process.cwd(),
      oauth: { store: { ...untouched, get: async (key) => (reads.push(key), undefined) } },
    });
    try {
      await manager.connect();
      expect(manager.servers()[0]).toMatchObject({ state: "connected" });
    } finally {
      await manager.close();
      await open.close();
    }
    expect(reads).toEqual([]);
  });

  it("fails headless without a stored sign-in, saying a sign-in is needed in no front end's words", async () => {
    const warnings: string[] = [];
    const manager = createMcpManager({
      config: config(),
      cwd: process.cwd(),
      oauth: { store: memoryStore() },
      warn: (message) => warnings.push(message),
    });
    try {
      await manager.connect();
      expect(manager.servers()[0]).toMatchObject({ state: "failed" });
    } finally {
      await manager.close();
    }
    expect(warnings.join("\n")).toContain("needs a sign-in (OAuth)");
    expect(warnings.join("\n")).toContain("sign in once where a person can");
    // How to sign in is a front end's to say (the CLI's docs name 'xzatoma mcp list').
    expect(warnings.join("\n")).not.toMatch(/xzatoma /);
  });
});
