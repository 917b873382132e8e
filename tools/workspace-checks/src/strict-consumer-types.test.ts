// An embedder's TypeScript with `strict` and its libraries' types checked (`skipLibCheck:
// false`) compiles against XZatoma's published types with nothing but what npm installs:
// the packages' own files and, flat beside them, the dependencies their manifests declare.
// The AI SDK's provider types import `json-schema`, whose types no package of that chain
// declared, so such a project failed with TS7016 until @xzatoma/core and
// @xzatoma/providers depended on @types/json-schema. Uses the built dist/ of the packages.
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const EMBEDDED = ["@xzatoma/core", "@xzatoma/providers", "@xzatoma/tools"];
const project = mkdtempSync(path.join(tmpdir(), "xz-strict-consumer-"));

afterAll(() => rmSync(project, { recursive: true, force: true }));

/** The installed directory of `name` as Node finds it from `from`. */
function find(name: string, from: string): string | undefined {
  for (let directory = from; ; directory = path.dirname(directory)) {
    const candidate = path.join(directory, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return realpathSync(candidate);
    if (path.dirname(directory) === directory) return undefined;
  }
}

/**
 * Lays out `names` and what they declare (dependencies, required peers) flat in
 * `<project>/node_modules`, as npm does: XZatoma's packages as their published files
 * (package.json and dist/), other packages linked to their installed copy.
 */
function installFlat(names: readonly string[], from: string): void {
  const seen = new Set<string>();
  const add = (name: string, start: string) => {
    if (seen.has(name)) return;
    const directory = find(name, start);
    if (directory === undefined) return;
    seen.add(name);
    const target = path.join(project, "node_modules", name);
    mkdirSync(path.dirname(target), { recursive: true });
    if (directory.startsWith(path.join(ROOT, "packages") + path.sep)) {
      mkdirSync(target);
      cpSync(path.join(directory, "package.json"), path.join(target, "package.json"));
      cpSync(path.join(directory, "dist"), path.join(target, "dist"), { recursive: true });
    } else {
      symlinkSync(directory, target);
    }
    const manifest = JSON.parse(readFileSync(path.join(directory, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) add(dependency, directory);
    for (const peer of Object.keys(manifest.peerDependencies ?? {}))
      if (!manifest.peerDependenciesMeta?.[peer]?.optional) add(peer, directory);
  };
  for (const name of names) add(name, from);
}

it("compiles an embedder's strict TypeScript, libraries' types checked, with what npm installs", () => {
  // The embedder's own choice: Node's types.
  installFlat([...EMBEDDED, "@types/node"], path.join(ROOT, "apps/cli"));
  writeFileSync(
    path.join(project, "index.ts"),
    [
      'import type { Agent } from "@xzatoma/core";',
      'import type { Provider } from "@xzatoma/providers";',
      'import type { createBuiltinTools } from "@xzatoma/tools";',
      "export type Embedded = [Agent, Provider, typeof createBuiltinTools];",
      "",
    ].join("\n"),
  );
  writeFileSync(
    path.join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        noEmit: true,
        types: ["node"],
        // Resolve from where the packages are laid out, not from their pnpm store paths.
        preserveSymlinks: true,
      },
      files: ["index.ts"],
    }),
  );
  let output = "";
  try {
    execFileSync(path.join(ROOT, "node_modules/.bin/tsc"), ["-p", project], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    output = (error as { stdout: string }).stdout;
  }
  expect(output).toBe("");
}, 300_000);
