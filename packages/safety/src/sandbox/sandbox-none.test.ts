import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "./sandbox.js";
import { TEST_TIMEOUT_MS, makeWorkspace, removeWorkspace } from "./sandbox.test-support.js";

describe("without a usable sandbox", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), "xzatoma-no-sandbox-"));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it("says why when bwrap is missing, and runs commands as they are", async () => {
    const missing = path.join(directory, "no-bwrap");
    const sandbox = createSandbox({ bwrapPath: missing });
    expect(sandbox.kind).toBe("none");
    expect(sandbox.warning).toContain(`is not at ${JSON.stringify(missing)}`);
    expect(sandbox.warning).toContain("only provably read-only ones run without a person's yes");
    expect(sandbox.warning).toContain("apt-get install bubblewrap");
    const run = await sandbox.prepare(["ls", "-la"], { workspace: "/w", cwd: "/w" });
    expect(run).toMatchObject({
      file: "ls",
      args: ["-la"],
      env: {},
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(await run.finish()).toEqual({ applied: [], discarded: [] });
    await expect(sandbox.prepare([], { workspace: "/w", cwd: "/w" })).rejects.toThrow(/empty/);
  });

  it("looks nowhere else when the path it was given is relative, even where bwrap is", () => {
    const sandbox = createSandbox({ bwrapPath: "bwrap", env: { PATH: "/usr/bin:/bin" } });
    expect(sandbox.kind).toBe("none");
    expect(sandbox.warning).toContain('is not at "bwrap"');
  });

  it("says so when it is turned off", async () => {
    const sandbox = createSandbox({ disabled: true });
    expect(sandbox.kind).toBe("none");
    expect(sandbox.warning).toContain("turned off");
    expect((await sandbox.prepare(["true"], { workspace: "/w", cwd: "/w" })).file).toBe("true");
  });

  it(
    "checks once, on first use, that bubblewrap runs here, and reports what it said when it does not",
    async () => {
      const fake = path.join(directory, "bwrap");
      await writeFile(
        fake,
        "#!/bin/sh\necho 'bwrap: Creating new namespace failed: Operation not permitted' >&2\nexit 1\n",
      );
      await chmod(fake, 0o755);
      const sandbox = createSandbox({ bwrapPath: fake });
      expect(sandbox.kind).toBe("bubblewrap");
      await sandbox.probe();
      expect(sandbox.kind).toBe("none");
      expect(sandbox.warning).toBe(
        "The bubblewrap sandbox cannot run on this machine, so only provably read-only terminal commands run without a person's yes: a test command failed (exit 1): bwrap: Creating new namespace failed: Operation not permitted.",
      );
      const run = await sandbox.prepare(["echo", "hi"], { workspace: "/w", cwd: "/w" });
      expect([run.file, ...run.args]).toEqual(["echo", "hi"]);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("options the sandbox refuses", () => {
  let workspace: string;
  const sandbox = createSandbox();
  beforeAll(async () => {
    workspace = await makeWorkspace({ "sub/file": "x\n" });
    await sandbox.probe();
  });
  afterAll(() => removeWorkspace(workspace));

  it(
    "a working directory outside the workspace, a home inside it or in a system directory",
    async () => {
      await expect(sandbox.prepare(["true"], { workspace, cwd: os.tmpdir() })).rejects.toThrow(
        /outside the workspace/,
      );
      for (const home of [path.join(workspace, "sub"), "/etc/home", "/", "relative"]) {
        await expect(
          sandbox.prepare(["true"], { workspace, cwd: workspace, home }),
        ).rejects.toThrow(/home/);
      }
      await expect(
        sandbox.prepare(["true"], { workspace, cwd: workspace, limits: { processes: 0 } }),
      ).rejects.toThrow(/positive integer/);
    },
    TEST_TIMEOUT_MS,
  );
});
