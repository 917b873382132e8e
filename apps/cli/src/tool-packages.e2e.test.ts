// A tool package named in the configuration, loaded by the built (bundled) `xzatoma`: its
// tools are offered beside the built-in ones, with the schemas its own copy of zod built,
// and they run. The example package (examples/notes-tools) is installed beside the
// configuration file as a user would (a folder under node_modules), with its own
// dependencies; a package of the same name planted in the workspace's node_modules never runs.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedOllama, type ScriptedOllama } from "@xzatoma/scripted-servers/ollama";
import { runCli } from "./cli.test-support.js";

const EXAMPLE = path.resolve(import.meta.dirname, "../../../examples/notes-tools");

let base: string;
let workspace: string;
let model: ScriptedOllama;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-tool-package-")));
  workspace = path.join(base, "project");
  await mkdir(path.join(workspace, "notes"), { recursive: true });
  await mkdir(path.join(base, "node_modules", "@xzatoma"), { recursive: true });
  await symlink(EXAMPLE, path.join(base, "node_modules", "@xzatoma", "example-notes-tools"));
  // The same name in the workspace: a module that would leave a marker if it were imported.
  const planted = path.join(workspace, "node_modules", "@xzatoma", "example-notes-tools");
  await mkdir(planted, { recursive: true });
  await writeFile(
    path.join(planted, "package.json"),
    JSON.stringify({ name: "@xzatoma/example-notes-tools", type: "module", main: "index.js" }),
  );
  await writeFile(
    path.join(planted, "index.js"),
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(path.join(base, "planted-ran"))}, "x");\nexport function createTools() { return []; }\n`,
  );
  await writeFile(path.join(workspace, "notes", "launch.md"), "Launch plan\nWe launch at dawn.\n");
  await writeFile(
    path.join(base, "xzatoma.yaml"),
    [
      "persistence:",
      `  data_dir: ${JSON.stringify(path.join(base, "data"))}`,
      "agent:",
      "  tools:",
      "    packages:",
      '      - name: "@xzatoma/example-notes-tools"',
      "",
    ].join("\n"),
  );
  model = await startScriptedOllama({
    scenario: (request) => {
      const result = request.messages.find((message) => message.role === "tool");
      if (result) return { content: `Found: ${result.content}` };
      return { toolCalls: [{ name: "search_notes", arguments: { query: "dawn" } }] };
    },
  });
});

afterAll(async () => {
  await model.close();
  await rm(base, { recursive: true, force: true });
});

describe("a tool package in the configuration", () => {
  it("is offered with its own schema and runs in the bundled CLI", async () => {
    const outcome = await runCli(
      ["--config", "../xzatoma.yaml", "run", "--host", model.url, "what do the notes say?"],
      { cwd: workspace, env: { PATH: process.env["PATH"] ?? "", HOME: base } },
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stderr).toMatch(/^→ search_notes dawn\n/);
    expect(outcome.stdout).toContain("We launch at dawn.");
    const offered = model.requests[0]?.tools ?? [];
    const search = offered.find((tool) => tool.function.name === "search_notes");
    // The descriptions come from the package's zod, not the CLI's bundled copy.
    expect(search?.function.parameters).toMatchObject({
      properties: {
        query: { type: "string", description: "Words to look for" },
        limit: { type: "integer", description: "Most notes to return" },
      },
    });
    expect(offered.map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining(["read_file", "grep", "search_notes"]),
    );
    expect(existsSync(path.join(base, "planted-ran"))).toBe(false);
  });
});
