// Limits of the sandbox as a whole, with real bubblewrap and real cgroups: the memory of all
// the command's processes together, and the size of the changes it hands back.
import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "./sandbox.js";
import {
  TEST_TIMEOUT_MS,
  makeWorkspace,
  removeWorkspace,
  runConfined,
} from "./sandbox.test-support.js";

const MiB = 1024 ** 2;
const sandbox = createSandbox();
let workspace: string;

beforeAll(async () => {
  await sandbox.probe();
  expect(sandbox.kind).toBe("bubblewrap");
  workspace = await makeWorkspace({ "kept.txt": "kept\n" });
});
afterAll(() => removeWorkspace(workspace));

describe("the memory of the whole sandbox", () => {
  // Only root may make the memory cgroup (see process-cgroup.ts); an ordinary user's
  // command is held per process by RLIMIT_DATA, which the confinement tests show.
  it.skipIf(process.getuid?.() !== 0)(
    "kills a command that allocates past it, and the outcome says so",
    async () => {
      // 256 MiB is far under the per-process limit (8 GiB), so only the cgroup stops it.
      const result = await runConfined(
        sandbox,
        `python3 -c "b = bytearray(${256 * MiB}); print('allocated')"`,
        { workspace, limits: { totalMemoryBytes: 64 * MiB } },
      );
      expect(result.stdout).not.toContain("allocated");
      expect(result.code).not.toBe(0);
      expect(result.outcome.limitsReached).toEqual([
        expect.stringMatching(/passed the sandbox's memory limit of 64 MiB: the kernel killed/),
      ]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "reports nothing for a command that stays under it",
    async () => {
      const result = await runConfined(
        sandbox,
        `python3 -c "b = bytearray(${8 * MiB}); print(len(b))"`,
        { workspace, limits: { totalMemoryBytes: 256 * MiB } },
      );
      expect(result.stdout).toBe(`${8 * MiB}\n`);
      expect(result.outcome.limitsReached).toBeUndefined();
    },
    TEST_TIMEOUT_MS,
  );
});

describe("the size of a command's changes", () => {
  it(
    "refuses the whole change set past it, says why, and leaves the workspace as it was",
    async () => {
      const result = await runConfined(
        sandbox,
        "head -c 3000000 /dev/zero > big.bin && echo small > small.txt && rm kept.txt",
        { workspace, limits: { changesBytes: 2 * MiB } },
      );
      expect(result.code).toBe(0);
      expect(result.outcome.applied).toEqual([]);
      expect(result.outcome.discarded).toEqual([
        {
          path: ".",
          reason: expect.stringMatching(
            /changes hold more than 2 MiB, past the sandbox's limit of 2 MiB for one command, so none of them were applied; the workspace is as it was/,
          ),
        },
      ]);
      expect(await readFile(path.join(workspace, "kept.txt"), "utf8")).toBe("kept\n");
      await expect(lstat(path.join(workspace, "big.bin"))).rejects.toThrow(/ENOENT/);
      await expect(lstat(path.join(workspace, "small.txt"))).rejects.toThrow(/ENOENT/);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "applies a change set under it",
    async () => {
      const result = await runConfined(sandbox, "head -c 1000000 /dev/zero > under.bin", {
        workspace,
        limits: { changesBytes: 2 * MiB },
      });
      expect(result.outcome.applied).toEqual(["under.bin"]);
      expect((await lstat(path.join(workspace, "under.bin"))).size).toBe(1_000_000);
    },
    TEST_TIMEOUT_MS,
  );
});
