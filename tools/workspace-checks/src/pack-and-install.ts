// Packs the publishable packages as `pnpm publish` would and installs the tarballs with
// npm into an empty project: what `npx @xzatoma/cli` does for a user. Used by the
// packaging test and by the install-size benchmark.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The workspace root. */
export const WORKSPACE_ROOT = path.resolve(fileURLToPath(new URL("../../..", import.meta.url)));

/** Where each workspace package lives, by its npm name. */
function workspacePackageDirectories(): Map<string, string> {
  const directories = new Map<string, string>();
  for (const group of ["packages", "apps"]) {
    for (const entry of readdirSync(path.join(WORKSPACE_ROOT, group), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const manifest = path.join(WORKSPACE_ROOT, group, entry.name, "package.json");
      try {
        const { name } = JSON.parse(readFileSync(manifest, "utf8")) as { name: string };
        directories.set(name, `${group}/${entry.name}`);
      } catch {
        // not a package
      }
    }
  }
  return directories;
}

/**
 * The package directories `root` needs at run time: itself and every workspace package its
 * dependencies reach, dependencies first. Derived from the manifests, so a new package the
 * CLI depends on is packed without anyone remembering to list it.
 */
export function workspaceClosure(root: string): string[] {
  const directories = workspacePackageDirectories();
  const ordered: string[] = [];
  const visit = (directory: string) => {
    if (ordered.includes(directory)) return;
    const manifest = JSON.parse(
      readFileSync(path.join(WORKSPACE_ROOT, directory, "package.json"), "utf8"),
    ) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
      const dependency = directories.get(name);
      if (dependency) visit(dependency);
    }
    ordered.push(directory);
  };
  visit(root);
  return ordered;
}

/** The packages the CLI and an embedding program need, in dependency order. */
export const CLI_PACKAGES: readonly string[] = workspaceClosure("apps/cli");

/** Packs each package directory into `destination` and returns the tarball paths. */
export function packPackages(packageDirectories: readonly string[], destination: string): string[] {
  mkdirSync(destination, { recursive: true });
  for (const directory of packageDirectories) {
    execFileSync("pnpm", ["pack", "--pack-destination", destination], {
      cwd: path.join(WORKSPACE_ROOT, directory),
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  return readdirSync(destination)
    .filter((name) => name.endsWith(".tgz"))
    .map((name) => path.join(destination, name));
}

/** Creates an empty project in `projectDirectory` and installs the tarballs into it with npm. */
export function installTarballs(tarballs: readonly string[], projectDirectory: string): void {
  mkdirSync(projectDirectory, { recursive: true });
  writeFileSync(
    path.join(projectDirectory, "package.json"),
    `${JSON.stringify({ name: "xzatoma-install-check", private: true, type: "module" }, null, 2)}\n`,
  );
  execFileSync(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      "--engine-strict=false",
      ...tarballs,
    ],
    {
      cwd: projectDirectory,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, npm_config_update_notifier: "false" },
    },
  );
}
