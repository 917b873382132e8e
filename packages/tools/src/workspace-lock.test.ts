// Changes to one workspace are serialised: a file tool's write and the terminal's apply
// (which takes the lock through withWorkspaceLock) never interleave. The writes go to an
// editor-like FileAccess that holds each write until the test lets it go, so the order is
// decided by the lock alone, not by timing.
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolRegistry, type ToolResult } from "@xzatoma/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileTools } from "./file-tools.js";
import { createWorkspaceContext, withWorkspaceLock, type FileAccess } from "./workspace-context.js";
import { createWorkspaceLock } from "./workspace-lock.js";

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), "xz-workspace-lock-")));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A deferred promise: settled when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Buffers in memory; each write is logged on entry and waits for the next released gate. */
function heldFiles(log: string[]) {
  const text = new Map<string, string>();
  const gates: ReturnType<typeof gate>[] = [];
  const entered: ReturnType<typeof gate>[] = [gate(), gate(), gate()];
  let writes = 0;
  const files: FileAccess = {
    readTextFile: (file) =>
      text.has(file) ? Promise.resolve(text.get(file) ?? "") : Promise.reject(new Error("ENOENT")),
    async writeTextFile(file, content) {
      const index = writes++;
      log.push(`write ${content} begins`);
      const held = gate();
      gates.push(held);
      entered[index]?.open();
      await held.opened;
      text.set(file, content);
      log.push(`write ${content} ends`);
    },
  };
  return { files, text, gates, entered };
}

function call(
  registry: ReturnType<typeof createToolRegistry>,
  name: string,
  input: Record<string, unknown>,
): Promise<ToolResult> {
  return registry.execute(
    {
      toolCallId: `${name}-${String(input["content"])}`,
      toolName: name,
      input: JSON.stringify(input),
    },
    { signal: new AbortController().signal, approve: () => Promise.resolve({ approved: true }) },
  );
}

describe("the workspace lock", () => {
  it("runs an apply after a write already under way, and a later write after the apply", async () => {
    const log: string[] = [];
    const held = heldFiles(log);
    const workspace = createWorkspaceContext({ root, files: held.files });
    const registry = createToolRegistry();
    for (const tool of createFileTools(workspace)) registry.register(tool);

    const first = call(registry, "write_file", { path: "notes.txt", content: "first" });
    await held.entered[0]?.opened;
    // The terminal's apply, as it calls it: waits for the write under way.
    const apply = withWorkspaceLock(workspace, () => {
      log.push("apply");
      return Promise.resolve();
    });
    const second = call(registry, "write_file", { path: "notes.txt", content: "second" });
    // A macrotask turn: an apply not held by the lock would have run by now.
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(["write first begins"]);

    held.gates[0]?.open();
    await first;
    await apply;
    await held.entered[1]?.opened;
    expect(log).toEqual(["write first begins", "write first ends", "apply", "write second begins"]);
    held.gates[1]?.open();
    await second;
    expect(held.text.get(path.join(root, "notes.txt"))).toBe("second");
  });

  it("goes on after a change that failed", async () => {
    const lock = createWorkspaceLock();
    await expect(lock.run(() => Promise.reject(new Error("apply failed")))).rejects.toThrow(
      "apply failed",
    );
    await expect(lock.run(() => Promise.resolve("next"))).resolves.toBe("next");
  });
});
