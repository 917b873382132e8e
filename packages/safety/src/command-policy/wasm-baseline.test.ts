import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { mayPinBaselineTier } from "./wasm-baseline.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const packageRoot = path.resolve(here, "..", "..");

describe("the tier the bash grammar is compiled at", () => {
  it("is pinned unless node was started with its own WebAssembly tiering options", () => {
    expect(mayPinBaselineTier([])).toBe(true);
    expect(mayPinBaselineTier(["--max-old-space-size=512", "--wasm-sync-tier-up"])).toBe(true);
    expect(mayPinBaselineTier(["--wasm-tiering-budget=1000"])).toBe(true);
    for (const option of [
      "--liftoff-only",
      "--no-liftoff",
      "--no-wasm-tier-up",
      "--wasm_dynamic_tiering",
      "--nowasm-lazy-compilation",
      "--wasm-tier-up",
    ]) {
      expect(mayPinBaselineTier(["--enable-source-maps", option]), option).toBe(false);
    }
  });

  it("keeps the lexer out of TurboFan: parsing commands does not cost hundreds of MiB", () => {
    // A child process, so the grammar is compiled fresh (V8 shares compiled modules within
    // a process) and its peak memory is its own. --wasm-sync-tier-up makes any tier-up
    // compile on the spot, so the measurement does not depend on a background thread's
    // timing. Compiled with V8's defaults, this script peaks at ~570 MiB.
    const grammar = createRequire(import.meta.url).resolve(
      "tree-sitter-bash/tree-sitter-bash.wasm",
    );
    const script = `
        import { readFileSync } from "node:fs";
        import { Language, Parser } from "web-tree-sitter";
        import { compileBaselineOnly } from ${JSON.stringify(path.join(here, "wasm-baseline.ts"))};
        await Parser.init();
        const parser = new Parser();
        parser.setLanguage(Language.loadSync(compileBaselineOnly(readFileSync(${JSON.stringify(grammar)}))));
        let errors = 0;
        for (let index = 0; index < 200; index += 1) {
          const tree = parser.parse('for f in ./src/*.ts; do grep -n "TODO" "$f" | sed -e "s/^/x: /" >> out.txt; done && echo "\${HOME:-/}" $(date +%s)');
          if (tree.rootNode.hasError) errors += 1;
          tree.delete();
        }
        console.log(JSON.stringify({ errors, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
      `;
    const child = spawnSync(
      process.execPath,
      // --experimental-strip-types: Node 22 needs it to import the .ts module (24 ignores it).
      [
        "--experimental-strip-types",
        "--wasm-sync-tier-up",
        "--input-type=module",
        "--eval",
        script,
      ],
      { cwd: packageRoot, encoding: "utf8" },
    );
    expect(child.stderr).not.toMatch(/Error/);
    expect(child.status).toBe(0);
    const result = JSON.parse(child.stdout) as { errors: number; maxRssMiB: number };
    expect(result.errors).toBe(0);
    expect(result.maxRssMiB).toBeLessThan(200);
  }, 30_000);
});
