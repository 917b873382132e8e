// Tool packages are XZatoma's own code once imported: they run in its process, outside the
// sandbox, with the provider's keys in its environment. Each case plants a package in a
// temporary workspace whose module would create a marker file when imported, and shows the
// marker is absent: the workspace's node_modules is never a place a package comes from.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { isXzatomaError } from "@xzatoma/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfiguredToolPackages, toolPackageRoots } from "./tool-packages.js";

let base: string;
let workspace: string;
let configDir: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-tool-packages-")));
  workspace = path.join(base, "project");
  configDir = path.join(base, "config");
  await mkdir(workspace, { recursive: true });
  await mkdir(configDir, { recursive: true });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A package under `directory/node_modules/name` that creates `marker` when imported. */
async function plantPackage(directory: string, name: string, marker: string): Promise<string> {
  const root = path.join(directory, "node_modules", name);
  await mkdir(root, { recursive: true });
  await writeFile(
    path.join(root, "package.json"),
    JSON.stringify({ name, version: "1.0.0", type: "module", main: "index.js" }),
  );
  await writeFile(
    path.join(root, "index.js"),
    [
      'import { writeFileSync } from "node:fs";',
      `writeFileSync(${JSON.stringify(marker)}, "imported");`,
      "export function createTools() { return []; }",
      "",
    ].join("\n"),
  );
  return root;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(isXzatomaError(error) && error.code).toBe("TOOL_PACKAGE_INVALID");
    return (error as Error).message;
  }
  throw new Error("the package loaded");
}

describe("configured tool packages", () => {
  it("are never resolved from the workspace's node_modules", async () => {
    const marker = path.join(base, "workspace-package-ran");
    await plantPackage(workspace, "xz-planted-tools", marker);
    const message = await refusal(
      loadConfiguredToolPackages(
        [{ name: "xz-planted-tools" }],
        workspace,
        path.join(configDir, "config.yaml"),
      ),
    );
    expect(message).toMatch(/not found from .*never looked up in the workspace/);
    expect(existsSync(marker)).toBe(false);
  });

  it("come from the configuration file's directory when it is outside the workspace", async () => {
    const marker = path.join(base, "config-package-ran");
    await plantPackage(configDir, "xz-config-tools", marker);
    // The same name planted in the workspace is not the one that runs.
    const planted = path.join(base, "workspace-package-ran");
    await plantPackage(workspace, "xz-config-tools", planted);
    await loadConfiguredToolPackages(
      [{ name: "xz-config-tools" }],
      workspace,
      path.join(configDir, "config.yaml"),
    );
    expect(existsSync(marker)).toBe(true);
    expect(existsSync(planted)).toBe(false);
  });

  it("are not looked up beside a configuration file inside the workspace (a project's own)", async () => {
    const marker = path.join(base, "project-config-package-ran");
    await plantPackage(workspace, "xz-project-tools", marker);
    const projectConfig = path.join(workspace, ".xzatoma", "config.yaml");
    expect(toolPackageRoots(projectConfig, workspace)).toEqual([]);
    await refusal(
      loadConfiguredToolPackages([{ name: "xz-project-tools" }], workspace, projectConfig),
    );
    expect(existsSync(marker)).toBe(false);
  });

  it("are refused when what resolves outside is a link into the workspace", async () => {
    const marker = path.join(base, "linked-package-ran");
    const planted = await plantPackage(path.join(workspace, "vendor"), "xz-linked-tools", marker);
    await mkdir(path.join(configDir, "node_modules"), { recursive: true });
    await symlink(planted, path.join(configDir, "node_modules", "xz-linked-tools"));
    const message = await refusal(
      loadConfiguredToolPackages(
        [{ name: "xz-linked-tools" }],
        workspace,
        path.join(configDir, "config.yaml"),
      ),
    );
    expect(message).toMatch(/inside the workspace/);
    expect(existsSync(marker)).toBe(false);
  });

  it("are refused when named by a path into the workspace", async () => {
    const marker = path.join(base, "path-package-ran");
    const planted = await plantPackage(workspace, "xz-path-tools", marker);
    const message = await refusal(
      loadConfiguredToolPackages(
        [{ name: path.join(planted, "index.js") }],
        workspace,
        path.join(configDir, "config.yaml"),
      ),
    );
    expect(message).toMatch(/inside the workspace/);
    expect(existsSync(marker)).toBe(false);
  });
});
