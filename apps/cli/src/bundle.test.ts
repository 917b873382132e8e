import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The built bundle (`tsup.config.ts`) as an install gets it: what it loads from outside itself
// must be a dependency of the CLI, and what it holds must be attributed.
const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "dist");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const chunks = readdirSync(dist).filter((file) => file.endsWith(".js"));

/** The package a bare specifier names (`yaml`, `@napi-rs/keyring`), or undefined for a path. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return undefined;
  if (specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0] ?? ""))
    return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * Every package the bundle's code loads at run time: static and dynamic imports, `require`
 * (the TypeScript scanner's view of the file), esbuild's `__require` of bundled CommonJS,
 * and `createRequire(...)("name")` / `.resolve("name/...")` calls.
 */
function loadedPackages(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const chunk of chunks) {
    const source = readFileSync(path.join(dist, chunk), "utf8");
    const specifiers = ts
      .preProcessFile(source, true, true)
      .importedFiles.map((file) => file.fileName);
    for (const match of source.matchAll(/\b__require\d*\("([^"]+)"\)/g)) specifiers.push(match[1]!);
    for (const match of source.matchAll(/createRequire\d*\([^()]*\)(?:\.resolve)?\("([^"]+)"\)/g))
      specifiers.push(match[1]!);
    for (const specifier of specifiers) {
      const name = packageOf(specifier);
      if (name) found.set(name, [...(found.get(name) ?? []), chunk]);
    }
  }
  return found;
}

describe("the CLI's bundle", () => {
  it("loads from outside itself only its dependencies and optional peers", () => {
    const loaded = loadedPackages();
    const declared = new Set([
      ...Object.keys(manifest.dependencies),
      ...Object.keys(manifest.peerDependencies),
    ]);
    // safety resolves the grammar from tree-sitter-bash only when no copy is beside its
    // code; the bundle ships one (the next test but one).
    const undeclared = [...loaded.keys()].filter(
      (name) => !declared.has(name) && name !== "tree-sitter-bash",
    );
    expect(undeclared, JSON.stringify(Object.fromEntries(loaded))).toEqual([]);
    // The externals the build names are the ones it loads (a dependency nothing loads is dead).
    for (const name of Object.keys(manifest.dependencies))
      expect(loaded.has(name), name).toBe(true);
    // The local model's runtime is imported by a computed name, so the scanner cannot see it.
    const sources = chunks.map((chunk) => readFileSync(path.join(dist, chunk), "utf8")).join("");
    for (const name of Object.keys(manifest.peerDependencies))
      expect(sources.includes(`"${name}"`), name).toBe(true);
  });

  it("holds no workspace library as an import: each is bundled from its sources", () => {
    const workspace = [...loadedPackages().keys()].filter((name) => name.startsWith("@xzatoma/"));
    expect(workspace).toEqual([]);
    expect(
      Object.keys(manifest.dependencies).filter((name) => name.startsWith("@xzatoma/")),
    ).toEqual([]);
  });

  it("holds zod's English messages and none of its translations", () => {
    // bundle/zod-english-only.ts: esbuild names each bundled module in a comment.
    const locales = new Set<string>();
    for (const chunk of chunks) {
      const source = readFileSync(path.join(dist, chunk), "utf8");
      for (const match of source.matchAll(/^\/\/ \S*\/zod\/v4\/locales\/(\S+)$/gm))
        locales.add(match[1]!);
    }
    expect([...locales]).toEqual(["en.js"]);
  });

  it("ships the files its code reads from beside itself", () => {
    for (const file of [
      "tree-sitter-bash.wasm",
      "web-tree-sitter.wasm",
      "grep-worker.cjs",
      "drizzle/meta/_journal.json",
    ]) {
      expect(existsSync(path.join(dist, file)), file).toBe(true);
    }
    const migrations = readdirSync(path.join(root, "../../packages/persistence/drizzle")).filter(
      (file) => file.endsWith(".sql"),
    );
    expect(readdirSync(path.join(dist, "drizzle")).filter((file) => file.endsWith(".sql"))).toEqual(
      migrations,
    );
  });

  it("names every bundled package with its licence in THIRD_PARTY_LICENSES.md", () => {
    const licences = readFileSync(path.join(dist, "THIRD_PARTY_LICENSES.md"), "utf8");
    const listed = [...licences.matchAll(/^- (\S+) (\S+) \((.+)\)$/gm)].map((match) => match[1]);
    // What the bundle is known to hold: the build-time dependencies with code in a command.
    for (const name of ["commander", "zod", "@agentclientprotocol/sdk", "drizzle-orm", "kafkajs"])
      expect(listed, name).toContain(name);
    for (const name of listed) expect(licences, name).toContain(`## ${name} `);
    // Nothing that stays a dependency is listed as bundled.
    for (const name of Object.keys(manifest.dependencies)) expect(listed).not.toContain(name);
  });
});
