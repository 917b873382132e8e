// The sandbox hides the workspace's secret-looking files from the command: real
// bubblewrap, real overlays, real processes, reading them the ways a model would.
import { lstat, mkdir, readFile, readdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { isXzatomaError } from "@xzatoma/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "./sandbox.js";
import {
  TEST_TIMEOUT_MS,
  makeWorkspace,
  removeWorkspace,
  runConfined,
} from "./sandbox.test-support.js";

const SECRETS: Record<string, string> = {
  ".env": "API_TOKEN=env-secret-1\n",
  ".env.production": "API_TOKEN=env-secret-2\n",
  ".git/config": '[remote "origin"]\n\turl = https://ci:git-secret-3@example.invalid/r.git\n',
  "sub/.git/config": "[http]\n\textraheader = AUTHORIZATION: basic git-secret-4\n",
  ".git/modules/lib/config": '[remote "origin"]\n\turl = https://x:git-secret-5@example.invalid\n',
  ".ssh/id_ed25519": "ssh-secret-6\n",
  "deploy/server.key": "key-secret-7\n",
  "config/values": "API_TOKEN=linked-secret-8\n",
};
const VISIBLE: Record<string, string> = {
  ".env.example": "API_TOKEN=changeme\n",
  "README.md": "hello\n",
  "sub/.git/HEAD": "ref: refs/heads/main\n",
};
const SECRET_TEXT = /secret-\d/;

const sandbox = createSandbox();

beforeAll(async () => {
  await sandbox.probe();
  expect(sandbox.warning).toBeUndefined();
});

describe("the sandbox masks the workspace's secret-looking files", () => {
  let workspace: string;
  beforeAll(async () => {
    workspace = await makeWorkspace({ ...SECRETS, ...VISIBLE });
    // A secret-looking name that leads to an innocent-looking file of the workspace.
    await symlink("config/values", path.join(workspace, ".envrc"));
  });
  afterAll(() => removeWorkspace(workspace));

  it(
    "shows them empty, however the command reads them, and shows the rest",
    async () => {
      const result = await runConfined(
        sandbox,
        [
          "cat .env .env.production",
          `python3 -c "print(open('.e'+'nv').read())"`,
          "cat .git/config sub/.git/config .git/modules/lib/config",
          "ls -A .ssh; cat .ssh/id_ed25519",
          "cat deploy/server.key config/values .envrc",
          "grep -r secret . ; echo searched",
          "cat .env.example README.md sub/.git/HEAD",
        ].join("; "),
        { workspace },
      );
      expect(result.stdout).not.toMatch(SECRET_TEXT);
      expect(result.stdout).toContain("searched");
      expect(result.stdout).toContain("API_TOKEN=changeme\nhello\nref: refs/heads/main\n");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "keeps them as they are, whatever the command does to them",
    async () => {
      const result = await runConfined(
        sandbox,
        [
          "echo stolen > .env",
          "rm -f .env.production deploy/server.key",
          "rm -rf .ssh sub",
          "mv .git/config .git/config.old",
          "python3 -c \"open('config/values','w').write('x')\"",
          "echo done > done.txt",
        ].join("; "),
        { workspace },
      );
      expect(result.code).toBe(0);
      for (const [relative, content] of Object.entries(SECRETS)) {
        expect(await readFile(path.join(workspace, relative), "utf8")).toBe(content);
      }
      expect(await readFile(path.join(workspace, "done.txt"), "utf8")).toBe("done\n");
      const masked = new Set([...Object.keys(SECRETS), ".ssh", ".envrc"]);
      expect(result.outcome.applied.filter((relative) => masked.has(relative))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("the sandbox refuses a workspace it cannot search within its bounds", () => {
  const small = createSandbox({ secretScan: { maxEntries: 50 } });
  let workspace: string;
  beforeAll(async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 80; index++) files[`many/file-${index}.txt`] = "x\n";
    workspace = await makeWorkspace(files);
  });
  afterAll(() => removeWorkspace(workspace));

  it(
    "runs nothing and says why",
    async () => {
      const refusal = await runConfined(small, "echo ran > ran.txt", { workspace }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isXzatomaError(refusal) && refusal.code).toBe("SANDBOX_REFUSED");
      expect((refusal as Error).message).toMatch(/more than 50 entries/);
      await expect(lstat(path.join(workspace, "ran.txt"))).rejects.toThrow(/ENOENT/);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "does not count what node_modules holds",
    async () => {
      const packages = await makeWorkspace({ ".env": "API_TOKEN=env-secret-9\n" });
      try {
        await mkdir(path.join(packages, "node_modules/pkg"), { recursive: true });
        for (let index = 0; index < 80; index++) {
          await writeFile(path.join(packages, `node_modules/pkg/f${index}.js`), "");
        }
        const result = await runConfined(small, "cat .env; ls node_modules/pkg | wc -l", {
          workspace: packages,
        });
        expect(result.stdout).toBe("80\n");
        expect(await readdir(packages)).toEqual(expect.arrayContaining([".env"]));
      } finally {
        await removeWorkspace(packages);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
