// How a sandboxed command's changes reach the workspace: real bubblewrap, real overlays.
import { lstat, mkdtemp, readFile, readdir, readlink, realpath, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "./sandbox.js";
import {
  TEST_TIMEOUT_MS,
  makeWorkspace,
  removeWorkspace,
  runConfined,
} from "./sandbox.test-support.js";

let scratch: string;
let sandbox: ReturnType<typeof createSandbox>;
beforeAll(async () => {
  // A scratch directory of our own, to see that every run cleans up after itself.
  scratch = await realpath(await mkdtemp(path.join(os.tmpdir(), "xzatoma-scratch-")));
  sandbox = createSandbox({ scratchDirectory: scratch });
  await sandbox.probe();
  expect(sandbox.kind).toBe("bubblewrap");
});
afterAll(() => rm(scratch, { recursive: true, force: true }));
afterEach(async () => {
  expect(await readdir(scratch)).toEqual([]);
});

const exists = (file: string) =>
  lstat(file).then(
    () => true,
    () => false,
  );

describe("a command's changes reach the workspace", () => {
  let workspace: string;
  beforeAll(async () => {
    workspace = await makeWorkspace({ "old.txt": "old\n", "keep.txt": "keep\n" });
  });
  afterAll(() => removeWorkspace(workspace));

  it(
    "writes, directories, deletions, links and modes",
    async () => {
      const result = await runConfined(
        sandbox,
        "echo hi > a.txt && mkdir -p d/e && echo x > d/e/f && rm old.txt && ln -s a.txt link && chmod +x a.txt",
        { workspace },
      );
      expect(result.code).toBe(0);
      expect(result.outcome.discarded).toEqual([]);
      expect(result.outcome.applied.sort()).toEqual(
        ["a.txt", "d", "d/e", "d/e/f", "link", "old.txt"].sort(),
      );
      expect(await readFile(path.join(workspace, "a.txt"), "utf8")).toBe("hi\n");
      expect((await stat(path.join(workspace, "a.txt"))).mode & 0o111).toBe(0o111);
      expect(await readFile(path.join(workspace, "d/e/f"), "utf8")).toBe("x\n");
      expect(await readlink(path.join(workspace, "link"))).toBe("a.txt");
      expect(await exists(path.join(workspace, "old.txt"))).toBe(false);
      expect(await readFile(path.join(workspace, "keep.txt"), "utf8")).toBe("keep\n");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "applies 2,000 new files",
    async () => {
      const result = await runConfined(
        sandbox,
        "mkdir out && for i in $(seq 1 2000); do echo $i > out/f$i; done",
        { workspace },
      );
      expect(result.code).toBe(0);
      expect(result.outcome.applied).toHaveLength(2001);
      expect(await readdir(path.join(workspace, "out"))).toHaveLength(2000);
      expect(await readFile(path.join(workspace, "out/f1234"), "utf8")).toBe("1234\n");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "replaces a directory the command deleted and made again, and merges one it only added to",
    async () => {
      const tree = await makeWorkspace({
        "build/stale.js": "old\n",
        "build/nested/stale.js": "old\n",
        "src/a.ts": "a\n",
        "src/b.ts": "b\n",
      });
      try {
        const result = await runConfined(
          sandbox,
          "rm -rf build && mkdir -p build && echo new > build/main.js && echo c > src/c.ts",
          { workspace: tree },
        );
        expect(result.outcome.discarded).toEqual([]);
        expect(await readdir(path.join(tree, "build"))).toEqual(["main.js"]);
        expect((await readdir(path.join(tree, "src"))).sort()).toEqual(["a.ts", "b.ts", "c.ts"]);
      } finally {
        await removeWorkspace(tree);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "turns files into directories and back, links into files",
    async () => {
      const tree = await makeWorkspace({
        "was-file": "f\n",
        "was-dir/inner": "i\n",
        target: "t\n",
      });
      try {
        const result = await runConfined(
          sandbox,
          "ln -s target was-link && rm was-file && mkdir was-file && echo in > was-file/x && rm -r was-dir && echo now > was-dir && rm was-link && echo plain > was-link",
          { workspace: tree },
        );
        expect(result.outcome.discarded).toEqual([]);
        expect(await readFile(path.join(tree, "was-file/x"), "utf8")).toBe("in\n");
        expect(await readFile(path.join(tree, "was-dir"), "utf8")).toBe("now\n");
        expect((await lstat(path.join(tree, "was-link"))).isFile()).toBe(true);
      } finally {
        await removeWorkspace(tree);
      }
    },
    TEST_TIMEOUT_MS,
  );
});

describe("changes that do not reach the workspace", () => {
  let workspace: string;
  beforeAll(async () => {
    workspace = await makeWorkspace({ ".git/config": "[core]\n", "a.txt": "a\n" });
  });
  afterAll(() => removeWorkspace(workspace));
  const judge = (relative: string) =>
    relative.split("/")[0] === ".git" ? `${relative} is inside .git` : undefined;

  it(
    "links that lead out of the workspace, directly or once other links exist",
    async () => {
      const result = await runConfined(
        sandbox,
        "ln -s / up && ln -s ../../.. up2 && mkdir -p sub && ln -s ../.. sub/out && ln -s z/.. a-late && ln -s . z && ln -s sub/../a.txt fine",
        { workspace },
      );
      const discarded = new Map(
        result.outcome.discarded.map((change) => [change.path, change.reason]),
      );
      expect([...discarded.keys()].sort()).toEqual(["a-late", "sub/out", "up", "up2"]);
      expect(discarded.get("up")).toContain("leads out of the workspace");
      for (const name of ["up", "up2", "sub/out", "a-late"]) {
        expect(await exists(path.join(workspace, name))).toBe(false);
      }
      expect(await readlink(path.join(workspace, "z"))).toBe(".");
      expect(await readFile(path.join(workspace, "fine"), "utf8")).toBe("a\n");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "links to protected paths, fifos, and set-user-ID bits",
    async () => {
      const result = await runConfined(
        sandbox,
        "ln -s .git/config cfg && mkfifo pipe && cp /bin/true tool && chmod 4755 tool",
        { workspace, judge },
      );
      expect(result.outcome.discarded.map((change) => change.path).sort()).toEqual(["cfg", "pipe"]);
      expect(await exists(path.join(workspace, "pipe"))).toBe(false);
      expect((await stat(path.join(workspace, "tool"))).mode & 0o7777).toBe(0o755);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "keeps what the judge refuses to delete, and the directories above it",
    async () => {
      const tree = await makeWorkspace({
        "vendor/lib.js": "x\n",
        "vendor/.git/HEAD": "ref: refs/heads/main\n",
      });
      try {
        const result = await runConfined(sandbox, "rm -rf vendor; echo done", {
          workspace: tree,
          judge: (relative) =>
            relative.split("/").includes(".git") ? `${relative} is a repository` : undefined,
        });
        expect(result.outcome.applied).toContain("vendor/lib.js");
        expect(result.outcome.discarded.map((change) => change.path)).toEqual(["vendor/.git"]);
        expect(await readFile(path.join(tree, "vendor/.git/HEAD"), "utf8")).toBe(
          "ref: refs/heads/main\n",
        );
        expect(await exists(path.join(tree, "vendor/lib.js"))).toBe(false);
      } finally {
        await removeWorkspace(tree);
      }
    },
    TEST_TIMEOUT_MS,
  );
});

describe("runs that end early or overlap", () => {
  let workspace: string;
  beforeAll(async () => {
    workspace = await makeWorkspace();
  });
  afterAll(() => removeWorkspace(workspace));

  it(
    "applies what a killed command wrote before it died, and cleans up",
    async () => {
      const result = await runConfined(
        sandbox,
        "echo before > written && exec sleep 120",
        { workspace },
        {
          async onStart() {
            // Kill it once it has written its file (seen through the overlay's upper directory).
            for (let attempt = 0; attempt < 3000; attempt++) {
              const runs = await readdir(scratch);
              const written = await Promise.all(
                runs.map((run) => exists(path.join(scratch, run, "upper", "written"))),
              );
              if (written.includes(true)) return;
              await new Promise((resolve) => setTimeout(resolve, 10));
            }
          },
        },
      );
      expect(result.code).toBeNull();
      expect(await readFile(path.join(workspace, "written"), "utf8")).toBe("before\n");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "runs two commands at once in one workspace: each sees the workspace as it was, both apply",
    async () => {
      const [first, second] = await Promise.all([
        runConfined(sandbox, "echo one > one.txt; test -e two.txt && echo saw-two", { workspace }),
        runConfined(sandbox, "echo two > two.txt; test -e one.txt && echo saw-one", { workspace }),
      ]);
      expect(first.outcome.applied).toEqual(["one.txt"]);
      expect(second.outcome.applied).toEqual(["two.txt"]);
      expect(await readFile(path.join(workspace, "one.txt"), "utf8")).toBe("one\n");
      expect(await readFile(path.join(workspace, "two.txt"), "utf8")).toBe("two\n");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "is idempotent in finish()",
    async () => {
      const run = await sandbox.prepare(["/bin/true"], { workspace, cwd: workspace });
      const [a, b] = await Promise.all([run.finish(), run.finish()]);
      expect(a).toBe(b);
    },
    TEST_TIMEOUT_MS,
  );
});
