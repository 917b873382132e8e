import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "esbuild";

interface Manifest {
  readonly name: string;
  readonly exports?: Record<string, unknown>;
  readonly tsup?: unknown;
}

/** The entry names of a package's tsup configuration, with their source files. */
function entries(directory: string, tsup: unknown): Map<string, string> {
  const found = new Map<string, string>();
  for (const options of Array.isArray(tsup) && typeof tsup[0] === "object" ? tsup : [tsup]) {
    const entry = (options as { entry?: unknown } | undefined)?.entry;
    if (Array.isArray(entry)) {
      for (const file of entry as string[])
        found.set(path.basename(file, path.extname(file)), path.join(directory, file));
    } else if (entry && typeof entry === "object") {
      for (const [name, file] of Object.entries(entry as Record<string, string>))
        found.set(name, path.join(directory, file));
    }
  }
  return found;
}

/**
 * Every import name the workspace's libraries export (`@xzatoma/runtime`,
 * `@xzatoma/xzepr/config`, `@xzatoma/watcher/package.json`, ...) with the file it comes
 * from: the TypeScript source of the entry that builds it, or the package.json itself.
 */
export function workspaceSourceMap(packagesDirectory: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const name of readdirSync(packagesDirectory)) {
    const directory = path.join(packagesDirectory, name);
    const manifestFile = path.join(directory, "package.json");
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
    const built = entries(directory, manifest.tsup);
    for (const subpath of Object.keys(manifest.exports ?? {})) {
      const specifier = subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      if (subpath === "./package.json") map.set(specifier, manifestFile);
      else {
        const source = built.get(subpath === "." ? "index" : subpath.slice(2));
        if (source) map.set(specifier, source);
      }
    }
  }
  return map;
}

/**
 * Resolves the workspace's libraries to their TypeScript sources, so the CLI is bundled from
 * one source tree in one pass: one copy of each shared module, and a metafile that names
 * every third-party file the bundle holds (its licences are collected from it). An
 * `@xzatoma/` import the map does not know fails the build instead of staying external.
 */
export function workspaceSources(packagesDirectory: string): Plugin {
  const map = workspaceSourceMap(packagesDirectory);
  return {
    name: "xzatoma-workspace-sources",
    setup(build) {
      build.onResolve({ filter: /^@xzatoma\// }, (args) => {
        const source = map.get(args.path);
        if (source) return { path: source };
        return {
          errors: [{ text: `${args.path} is not an export of a package in ${packagesDirectory}` }],
        };
      });
    },
  };
}
