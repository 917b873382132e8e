import { mkdtemp, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadProjectInstructions } from "./project-instructions.js";

let workspace: string;
let outside: string;

beforeEach(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), "xzatoma-agents-"));
  outside = await mkdtemp(path.join(os.tmpdir(), "xzatoma-outside-"));
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe("loadProjectInstructions", () => {
  it("is undefined when the workspace has no AGENTS.md", async () => {
    expect(await loadProjectInstructions(workspace)).toBeUndefined();
  });

  it("reads AGENTS.md at the workspace root", async () => {
    await writeFile(path.join(workspace, "AGENTS.md"), "# Rules\nUse pnpm.\n");
    const instructions = await loadProjectInstructions(workspace);
    expect(instructions).toMatchObject({
      text: "# Rules\nUse pnpm.\n",
      truncated: false,
      bytes: 18,
    });
    expect(instructions?.path.endsWith("AGENTS.md")).toBe(true);
  });

  it("cuts a long file at a line end within the cap and says so", async () => {
    const line = "Always run the tests before you commit.\n"; // 40 bytes
    await writeFile(path.join(workspace, "AGENTS.md"), line.repeat(100));
    const instructions = await loadProjectInstructions(workspace, { maxBytes: 100 });
    expect(instructions?.truncated).toBe(true);
    expect(instructions?.text).toBe(
      `${line}${line.trimEnd()}\n\n[AGENTS.md was cut: it has 4000 bytes and only the first 100 are included.]`,
    );
  });

  it("is capped at 64 KiB by default", async () => {
    await writeFile(path.join(workspace, "AGENTS.md"), "x".repeat(70 * 1024));
    const instructions = await loadProjectInstructions(workspace);
    expect(instructions?.truncated).toBe(true);
    expect(instructions?.text.startsWith("x".repeat(65_536))).toBe(true);
    expect(instructions?.text).toContain("only the first 65536 are included");
  });

  it("refuses an AGENTS.md that is a symlink out of the workspace", async () => {
    await writeFile(path.join(outside, "secret.txt"), "secret");
    await symlink(path.join(outside, "secret.txt"), path.join(workspace, "AGENTS.md"));
    await expect(loadProjectInstructions(workspace)).rejects.toMatchObject({
      code: "PATH_OUTSIDE_WORKSPACE",
    });
  });

  it("ignores a directory named AGENTS.md", async () => {
    await mkdir(path.join(workspace, "AGENTS.md"));
    expect(await loadProjectInstructions(workspace)).toBeUndefined();
  });
});
