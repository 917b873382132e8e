import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolRegistry } from "@xzatoma/core";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createPlanTool } from "./plan-tool.js";
import { createWorkspaceContext } from "./workspace-context.js";

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), "xz-plan-")));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function call(file: string) {
  const registry = createToolRegistry();
  registry.register(createPlanTool(createWorkspaceContext({ root })));
  return registry.execute(
    { toolCallId: "1", toolName: "plan", input: JSON.stringify({ path: file }) },
    { signal: new AbortController().signal },
  );
}

it("reads a plan and returns it as numbered guidance", async () => {
  await writeFile(
    path.join(root, "plan.yaml"),
    "name: Tidy\nsteps:\n  - name: List\n    action: List the files\n",
  );
  const result = await call("plan.yaml");
  expect(result.output).toContain("1. List: List the files");
  expect(result.metadata).toMatchObject({ shape: "steps", instructions: 1 });
});

it("names the file and field of an invalid plan, and refuses paths outside the workspace", async () => {
  await writeFile(
    path.join(root, "bad.json"),
    '{"name": "x", "steps": [{"name": "a", "action": ""}]}',
  );
  expect((await call("bad.json")).error).toBe("bad.json: steps[0].action: must not be empty");
  expect((await call("../plan.yaml")).error).toContain("outside the workspace");
  expect((await call("missing.yaml")).error).toContain("'missing.yaml' does not exist");
});
