// `@mcp:server/uri` mentions: parsed, then loaded from the reference server-everything over
// stdio (started once for the file) through the runtime's MCP manager.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createMcpManager, type McpManager } from "@xzatoma/runtime";
import { runtimeConfigSchema } from "@xzatoma/runtime/config";
import { createWorkspaceContext } from "@xzatoma/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMentionLoader } from "./mention-loader.js";
import { mentionLabel } from "./mention.js";
import { parseMentions } from "./parse-mentions.js";

const EVERYTHING = fileURLToPath(
  new URL("../../../../packages/mcp/node_modules/.bin/mcp-server-everything", import.meta.url),
);
const DOCUMENT = "demo://resource/static/document/architecture.md";

let root: string;
let manager: McpManager;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "xzatoma-mcp-mentions-"));
  const { mcp } = runtimeConfigSchema.parse({
    mcp: { servers: { everything: { command: EVERYTHING, args: ["stdio"] } } },
  });
  manager = createMcpManager({ config: mcp, cwd: root });
});

afterAll(async () => {
  await manager.close();
  await rm(root, { recursive: true, force: true });
});

const loader = () =>
  createMentionLoader({
    pathGuard: createWorkspaceContext({ root }).pathGuard,
    readMcpResource: (server, uri) => manager.readResource(server, uri),
  });

describe("@mcp: mentions", () => {
  it("parse as a server and a URI, quoted or not", () => {
    const [plain, quoted] = parseMentions(
      `Read @mcp:everything/${DOCUMENT}, and @mcp:"docs/file:///a b.md"`,
    );
    expect(plain).toMatchObject({ kind: "mcp", server: "everything", uri: DOCUMENT });
    expect(quoted).toMatchObject({ kind: "mcp", server: "docs", uri: "file:///a b.md" });
    expect(plain && mentionLabel(plain)).toBe(`@mcp:everything/${DOCUMENT}`);
    expect(parseMentions("@mcp:everything @mcp:/x")).toEqual([]);
  });

  it("load the resource's text from the server into the prompt", async () => {
    const result = await loader().load(`Summarise @mcp:everything/${DOCUMENT}`);
    expect(result.failed).toEqual([]);
    expect(result.loaded).toMatchObject([
      {
        label: `@mcp:everything/${DOCUMENT}`,
        detail: expect.stringMatching(/^\d+ bytes, text\/markdown$/),
      },
    ]);
    expect(result.prompt).toContain(`### MCP resource ${DOCUMENT} of the server 'everything'`);
  });

  it("fail with a reason for a server that is not configured", async () => {
    const result = await loader().load("See @mcp:nowhere/file:///x");
    expect(result.failed).toMatchObject([
      { reason: expect.stringContaining("there is no MCP server 'nowhere'") },
    ]);
    expect(result.prompt).toContain("[@mcp:nowhere/file:///x could not be loaded:");
  });
});
