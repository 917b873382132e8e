import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolRegistry } from "@xzatoma/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTools } from "./index.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "xz-notes-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const signal = new AbortController().signal;
async function call(name: string, input: object, allowOverwrite = false) {
  const registry = createToolRegistry();
  for (const tool of createTools({ root, options: { allowOverwrite } })) registry.register(tool);
  return registry.execute(
    { toolCallId: "1", toolName: name, input: JSON.stringify(input) },
    { signal, approve: () => ({ approved: true }) },
  );
}

describe("notes tools", () => {
  it("saves inside the notes directory and finds the note again", async () => {
    expect(
      (await call("save_note", { title: "Release ../../plan", body: "Ship on Friday." })).output,
    ).toBe("Saved note 'Release ../../plan' as release-plan.md.");
    expect(await readFile(path.join(root, "notes", "release-plan.md"), "utf8")).toBe(
      "# Release ../../plan\n\nShip on Friday.\n",
    );
    expect((await call("search_notes", { query: "friday" })).output).toBe(
      "release-plan.md: # Release ../../plan / Ship on Friday.",
    );
  });

  it("refuses to overwrite unless allowed, and then asks first", async () => {
    await call("save_note", { title: "Plan", body: "v1" });
    expect((await call("save_note", { title: "Plan", body: "v2" })).error).toContain(
      "overwriting notes is turned off",
    );
    await writeFile(path.join(root, "notes", "other.md"), "x");
    expect((await call("save_note", { title: "Plan", body: "v2" }, true)).success).toBe(true);
    expect(await readFile(path.join(root, "notes", "plan.md"), "utf8")).toContain("v2");
  });
});
