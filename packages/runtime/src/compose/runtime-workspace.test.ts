import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { realpathSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { configProtection } from "./runtime-workspace.js";

let base: string;

beforeEach(async () => {
  base = realpathSync(await mkdtemp(path.join(os.tmpdir(), "xz-config-protection-")));
  await mkdir(path.join(base, "project", "src"), { recursive: true });
  await mkdir(path.join(base, "config"), { recursive: true });
  await writeFile(path.join(base, "config", "config.yaml"), "provider: {}\n");
  await writeFile(path.join(base, "project", "xzatoma.yaml"), "provider: {}\n");
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("configProtection", () => {
  it("protects a configuration file outside the workspace and its directory", () => {
    const file = path.join(base, "config", "config.yaml");
    expect(configProtection(file, path.join(base, "project"))).toEqual([
      file,
      path.join(base, "config"),
    ]);
  });

  it("protects only the file when its directory is the workspace or holds it", () => {
    const file = path.join(base, "project", "xzatoma.yaml");
    expect(configProtection(file, path.join(base, "project"))).toEqual([file]);
    expect(configProtection(file, path.join(base, "project", "src"))).toEqual([file]);
  });

  it("compares real paths: a link to the workspace still holds it", async () => {
    await symlink(path.join(base, "project"), path.join(base, "linked"));
    const file = path.join(base, "linked", "xzatoma.yaml");
    expect(configProtection(file, path.join(base, "project"))).toEqual([
      path.join(base, "project", "xzatoma.yaml"),
    ]);
  });

  it("protects a configuration file that does not exist yet under its real directory", async () => {
    await symlink(path.join(base, "config"), path.join(base, "config-link"));
    const file = path.join(base, "config-link", "new", "config.yaml");
    expect(configProtection(file, path.join(base, "project"))).toEqual([
      path.join(base, "config", "new", "config.yaml"),
      path.join(base, "config", "new"),
    ]);
  });
});
