// The README's main command, `bash tools/start.sh`, from three checkouts at different
// paths. The workspace path is part of the system prompt, so each checkout gives the
// embedded model a different prompt and, greedy as it is, a different answer: every one
// must still answer and exit 0. Each checkout is a `git clone --shared` of this repository
// (the committed tree, without node_modules); the command run in it is what start.sh runs
// after its setup: the setup's model install (tools/models/fetch-smollm2.sh --install into
// the data directory's models/), then `xzatoma run` with start.sh's own arguments and no
// model path, with this checkout's built CLI and toolchain.
import { execFileSync, spawn } from "node:child_process";
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

/** The arguments start.sh passes to xzatoma when it is given none, read from start.sh. */
function startArguments(): string[] {
  const output = execFileSync(
    "bash",
    [
      "-c",
      'eval "$(grep -E "^[[:space:]]*set -- " "$1")"; printf "%s\\0" "$@"',
      "start-arguments",
      path.join(ROOT, "tools/start.sh"),
    ],
    { encoding: "utf8" },
  );
  return output.split("\0").filter((argument) => argument !== "");
}

interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: readonly string[], cwd: string, home: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: {
        PATH: process.env["PATH"] ?? "",
        HOME: home,
        // The default run time limit (300 s) is generous, but this check must not depend
        // on how fast the machine is; the model's own limits end the answer.
        XZATOMA_AGENT_TIMEOUT_SECONDS: "86400",
      },
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
      path.join(ROOT, "tools/models/fetch-smollm2.sh"),
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

describe("bash tools/start.sh's agent run on the embedded model", () => {
  const args = startArguments();

  it("is the local provider with no model path", () => {
    expect(args).toEqual(["run", "--provider", "local", "--prompt", expect.any(String)]);
  });

  it("installs the model into a data directory only its owner may enter", async () => {
    for (const directory of [".xzatoma", ".xzatoma/models"]) {
      expect((await stat(path.join(home, directory))).mode & 0o777, directory).toBe(0o700);
    }
  });

  it.each(CHECKOUTS)(
    "answers and exits 0 in the checkout '%s'",
    { timeout: 1_800_000 },
    async (checkout) => {
      const outcome = await run(args, path.join(base, checkout), home);
      expect(outcome.stderr).not.toMatch(/error \[|PROVIDER_ERROR|CONTEXT_LENGTH_EXCEEDED/);
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(outcome.stdout.trim()).not.toBe("");
    },
  );
});
