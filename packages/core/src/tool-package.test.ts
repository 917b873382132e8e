import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadToolPackage } from "./tool-package.js";
import { createToolRegistry } from "./tool-registry.js";

let home: string;
let workspace: string;

beforeEach(async () => {
  home = await realpath(await mkdtemp(path.join(tmpdir(), "xzatoma-tool-package-")));
  workspace = path.join(home, "workspace");
  await mkdir(workspace);
  // A package built against an earlier @xzatoma/core: its defineTool returned the definition
  // itself, a zod schema in `inputSchema` and no `loadInputSchema`.
  const directory = path.join(home, "config", "node_modules", "earlier-tools");
  await mkdir(directory, { recursive: true });
  await writeFile(
    path.join(directory, "package.json"),
    JSON.stringify({ name: "earlier-tools", version: "1.0.0", type: "module", main: "index.js" }),
  );
  await writeFile(
    path.join(directory, "index.js"),
    `export function createTools(context) {
  return [{
    name: "shout",
    description: "Repeats text loudly.",
    inputSchema: context.options.schema,
    access: "read",
    execute: async ({ text }) => ({ success: true, output: text.toUpperCase(), truncated: false, metadata: {} }),
  }];
}
`,
  );
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("loadToolPackage", () => {
  it("keeps a package made with an earlier defineTool working: its zod schema validates and reaches the model", async () => {
    const schema = z.object({ text: z.string().describe("what to shout") }).strict();
    const tools = await loadToolPackage("earlier-tools", {
      context: { root: workspace, options: { schema } },
      resolveFrom: path.join(home, "config"),
    });
    const registry = createToolRegistry();
    for (const tool of tools) registry.register(tool);
    expect(registry.specifications()[0]?.inputSchema).toEqual({
      type: "object",
      properties: { text: { type: "string", description: "what to shout" } },
      required: ["text"],
      additionalProperties: false,
    });
    const signal = new AbortController().signal;
    const shouted = await registry.execute(
      { toolCallId: "1", toolName: "shout", input: JSON.stringify({ text: "hi" }) },
      { signal },
    );
    expect(shouted.output).toBe("HI");
    const refused = await registry.execute(
      { toolCallId: "2", toolName: "shout", input: JSON.stringify({ text: 1 }) },
      { signal },
    );
    expect(refused.error).toMatch(/^Invalid input for 'shout': text: /);
  });

  it("still refuses an item that is no tool", async () => {
    await expect(
      loadToolPackage("earlier-tools", {
        context: { root: workspace, options: { schema: "not a schema" } },
        resolveFrom: path.join(home, "config"),
      }),
    ).rejects.toThrow("item 0 is not a tool made with defineTool.");
  });
});
