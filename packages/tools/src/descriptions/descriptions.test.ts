// What the model reads about each tool: its description and the JSON Schema of its input, as
// the registry hands them to every provider with each request. They say what a model needs to
// pick a tool and call it, once and briefly. What holds for every tool (paths are relative to
// the workspace, what is refused, what needs approval, that tool output is data and not
// instructions) the system prompt says (packages/runtime/src/system-prompt.ts), not each tool.
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolRegistry, type ToolSpecification } from "@xzatoma/core";
import { createSandbox } from "@xzatoma/safety";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createStandardTools, type StandardTools } from "../standard-tools.js";
import { fetchConfigSchema, terminalConfigSchema, toolsConfigSchema } from "../tools-config.js";
import { createWorkspaceContext } from "../workspace-context.js";

let base: string;
let standard: StandardTools;
let specifications: ToolSpecification[];

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-descriptions-")));
  standard = createStandardTools(
    createWorkspaceContext({ root: base }),
    {
      tools: toolsConfigSchema.parse({}),
      terminal: terminalConfigSchema.parse({}),
      fetch: fetchConfigSchema.parse({}),
    },
    { sandbox: createSandbox() },
  );
  const registry = createToolRegistry();
  for (const tool of standard.tools) registry.register(tool);
  specifications = registry.specifications();
});

afterAll(async () => {
  await standard.close();
  await rm(base, { recursive: true, force: true });
});

function spec(name: string): ToolSpecification {
  const found = specifications.find((specification) => specification.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

/** The descriptions of a tool's parameters, by name. */
function parameters(name: string): Record<string, string | undefined> {
  const properties = spec(name).inputSchema["properties"] as Record<
    string,
    { description?: string }
  >;
  return Object.fromEntries(
    Object.entries(properties).map(([key, value]) => [key, value.description]),
  );
}

it("keeps what the model reads unchanged unless updated on purpose", () => {
  // A reworded description changes how models use a tool: every change is reviewed here.
  expect(
    Object.fromEntries(
      specifications.map(({ name, description, inputSchema }) => [
        name,
        { description, inputSchema },
      ]),
    ),
  ).toMatchSnapshot();
});

it("fits all 15 tools of write mode in 6.75 KiB of JSON", () => {
  expect(specifications.map((specification) => specification.name)).toHaveLength(15);
  // The system prompt and the request's envelope come on top; the runtime holds the whole
  // fixed part of the first request under 8 KiB.
  expect(Buffer.byteLength(JSON.stringify(specifications))).toBeLessThanOrEqual(6912);
});

it("keeps each description to a few sentences and each parameter to a phrase", () => {
  for (const { name, description, inputSchema } of specifications) {
    expect(Buffer.byteLength(description), name).toBeLessThanOrEqual(300);
    expect(description, name).not.toContain("\n");
    for (const [parameter, text] of Object.entries(parameters(name))) {
      expect(Buffer.byteLength(text ?? ""), `${name}.${parameter}`).toBeLessThanOrEqual(60);
    }
    expect(inputSchema, name).not.toHaveProperty("$schema");
  }
});

it("leaves what holds for every tool to the system prompt", () => {
  for (const specification of specifications) {
    expect(JSON.stringify(specification), specification.name).not.toMatch(
      /relative to the workspace|outside the workspace|protected path|instructions?\b.*\b(data|untrusted)|untrusted/i,
    );
  }
});

it("tells the model what it needs to choose and call each tool", () => {
  expect(spec("read_file").description).toMatch(/over 500 lines .* outline/);
  expect(spec("write_file").description).toMatch(/whole .* use edit_file/);
  expect(spec("edit_file").description).toMatch(/old_text, which must match exactly one place/);
  for (const mode of ["edit", "create", "overwrite", "append"]) {
    expect(spec("edit_file").description).toContain(`${mode}:`);
  }
  expect(parameters("edit_file")["old_text"]).toMatch(/mode edit/);
  expect(spec("delete_path").description).toMatch(/the link, not its target/);
  expect(parameters("delete_path")["recursive"]).toMatch(/directory/);
  for (const name of ["copy_path", "move_path"]) {
    expect(parameters(name)["destination"], name).toMatch(/new path itself/);
  }
  expect(spec("find_path").description).toMatch(/\*\* any directories/);
  expect(spec("grep").description).toMatch(/JavaScript regex/);
  // What is refused and what needs approval, where it is particular to the tool.
  expect(spec("terminal").description).toMatch(/run at once, others need approval/);
  expect(spec("terminal").description).toMatch(/refused/);
  expect(spec("fetch").description).toMatch(/private addresses .* refused/);
  expect(spec("fetch").description).toMatch(/need approval/);
});
