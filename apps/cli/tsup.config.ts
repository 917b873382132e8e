// The build of `@xzatoma/cli`: one bundle of the CLI, XZatoma's libraries (from their
// sources) and their pure-JavaScript dependencies, split in chunks that load when a command
// needs them (docs/explanation/start-up-and-memory.md, "One bundle"). Left out, and so
// dependencies of the CLI: native code (node-llama-cpp, the OS keyring), what the libraries
// load with `require` on first use (yaml, diff) and undici (the URL guard's HTTP client,
// loaded on the first fetch). Beside the bundle go the files the code finds next to itself:
// the bash grammar and web-tree-sitter's runtime (wasm), the grep worker, and the history
// database's migrations. THIRD_PARTY_LICENSES.md is written from the bundle's inputs.
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { defineConfig } from "tsup";
import { bundledPackages, thirdPartyLicenses } from "./bundle/third-party-licenses.ts";
import { lazyBuiltins } from "./bundle/lazy-builtins.ts";
import { workspaceSources } from "./bundle/workspace-sources.ts";
import { zodEnglishOnly } from "./bundle/zod-english-only.ts";

const root = import.meta.dirname;
const packages = path.resolve(root, "../../packages");
const dist = path.join(root, "dist");

/** Dependencies of the CLI that stay outside the bundle (see above). */
export const EXTERNAL = [
  "node-llama-cpp",
  "@napi-rs/keyring",
  "yaml",
  "diff",
  "undici",
  // Only embedders use it (exact token counts of @xzatoma/conversation): left out, it is not
  // emitted as a 3 MB chunk that nothing loads.
  "gpt-tokenizer",
] as const;

const external = new RegExp(
  `^(?!(?:${EXTERNAL.map((name) => name.replace(/[/.]/g, "\\$&")).join("|")})(?:/|$))`,
);

/** The files the bundled code reads from beside itself. */
function copyAssets(): void {
  mkdirSync(dist, { recursive: true });
  const safety = createRequire(path.join(packages, "safety", "package.json"));
  copyFileSync(
    path.join(packages, "safety", "dist", "tree-sitter-bash.wasm"),
    path.join(dist, "tree-sitter-bash.wasm"),
  );
  copyFileSync(
    path.join(path.dirname(safety.resolve("web-tree-sitter")), "web-tree-sitter.wasm"),
    path.join(dist, "web-tree-sitter.wasm"),
  );
  copyFileSync(
    path.join(packages, "tools", "dist", "grep-worker.cjs"),
    path.join(dist, "grep-worker.cjs"),
  );
  cpSync(path.join(packages, "persistence", "drizzle"), path.join(dist, "drizzle"), {
    recursive: true,
    dereference: true,
  });
}

export default defineConfig({
  entry: ["src/main.ts"],
  format: ["esm"],
  target: "node22",
  dts: true,
  clean: false,
  sourcemap: true,
  splitting: true,
  // Keep `node:` on built-in imports, so that tsup marks none external before the
  // lazy-builtins plugin sees them.
  removeNodeProtocol: false,
  noExternal: [external],
  external: [...EXTERNAL],
  // Every chunk gets a `require` for the CommonJS code in the bundle (esbuild's `__require`
  // calls it for Node's modules and the external packages). It is made on its first call:
  // creating one costs ~0.2 ms, and of the 20 chunks a run loads only one ever calls it.
  banner: {
    js:
      'import { createRequire as __xzatomaCreateRequire } from "node:module";\n' +
      "let __xzatomaRequire; const require = (id) => (__xzatomaRequire ??= __xzatomaCreateRequire(import.meta.url))(id);",
  },
  esbuildPlugins: [
    workspaceSources(packages),
    zodEnglishOnly(),
    lazyBuiltins(),
    {
      name: "xzatoma-bundle-files",
      setup(build) {
        build.initialOptions.metafile = true;
        build.onEnd((result) => {
          if (result.errors.length > 0 || !result.metafile) return;
          copyAssets();
          const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
            name: string;
          };
          writeFileSync(
            path.join(dist, "THIRD_PARTY_LICENSES.md"),
            thirdPartyLicenses(manifest.name, bundledPackages(result.metafile, process.cwd())),
          );
        });
      },
    },
  ],
});
