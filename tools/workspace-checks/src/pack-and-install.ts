// Packs the publishable packages as `pnpm publish` would and installs the tarballs with
// npm into an empty project: what `npx @xzatoma/cli` does for a user. Used by the
// packaging test and by the install-size benchmark.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The workspace root. */
export const WORKSPACE_ROOT = path.resolve(fileURLToPath(new URL("../../..", import.meta.url)));

/** The packages the CLI and an embedding program need, in dependency order. */
export const CLI_PACKAGES = [
  "packages/conversation",
  "packages/safety",
  "packages/core",
  "packages/tools",
  "packages/providers",
  "packages/persistence",
  "apps/cli",
];

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
