// The README's main command, `bash tools/start.sh`, from three checkouts at different
// paths, spaces included. Each checkout is a `git clone --shared` of this repository (the
// committed tree, without node_modules); what is run in it is what start.sh runs after its
// setup: the model install (tools/models/fetch-model.sh qwen2.5-coder-1.5b --install into
// the data directory's models/), then the checkout's own tools/start-demo.sh with this
// checkout's built CLI: a tool call, its result, and an answer read from that result. The
// model step runs once, with this checkout's script and download cache (.cache/models/,
// filled by tools/test.sh), into the one home the checkouts share: the clones download
// nothing, and the install is a hard link to the cached 1.1 GB file (a copy only across file systems).
import { execFileSync, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const BIN = path.join(ROOT, "apps/cli/bin/xzatoma.js");

/** Checkout directories of different lengths and shapes, spaces included. */
const CHECKOUTS = [
  "xz",
  "a checkout with spaces",
  "deeply/nested/directories/holding/yet-another-xzatoma-checkout-with-a-long-name",
];

interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the checkout's own tools/start-demo.sh with this checkout's built CLI. */
function demo(cwd: string, home: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [path.join(cwd, "tools/start-demo.sh")], {
      cwd,
      env: { PATH: process.env["PATH"] ?? "", HOME: home, XZ_DEMO_CLI: BIN },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

let base: string;
let home: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-checkouts-")));
  home = path.join(base, "home");
  await mkdir(home, { recursive: true });
  // start.sh's model step for this home: the data directory is ~/.xzatoma.
  execFileSync(
    "bash",
    [
      path.join(ROOT, "tools/models/fetch-model.sh"),
      "qwen2.5-coder-1.5b",
      "--install",
      path.join(home, ".xzatoma", "models"),
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  for (const checkout of CHECKOUTS) {
    const target = path.join(base, checkout);
    await mkdir(path.dirname(target), { recursive: true });
    execFileSync("git", ["clone", "--quiet", "--shared", ROOT, target], {
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("bash tools/start.sh's demo and model install", () => {
  it("installs the default model into a data directory only its owner may enter", async () => {
    for (const directory of [".xzatoma", ".xzatoma/models"]) {
      expect((await stat(path.join(home, directory))).mode & 0o777, directory).toBe(0o700);
    }
    const installed = await stat(
      path.join(home, ".xzatoma/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"),
    );
    expect(installed.size).toBe(1_117_320_768);
  });

  it.each(CHECKOUTS)(
    "shows a tool call, its result and an answer read from it, exit 0, in the checkout '%s'",
    { timeout: 300_000 },
    async (checkout) => {
      const outcome = await demo(path.join(base, checkout), home);
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(outcome.stderr).toContain("→ list_directory packages");
      const packages = readdirSync(path.join(ROOT, "packages"), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
      expect(outcome.stdout).toContain(
        `This checkout holds ${packages.length} packages under packages/: ${packages.join(", ")}.`,
      );
      expect(outcome.stderr).toContain("Next: xzatoma chat");
    },
  );
});
