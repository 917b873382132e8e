// Writes src/config/config-reader.generated.ts from the configuration's zod schemas (see
// src/config/generate-config-reader.ts). The build runs it before tsup, so the file never
// drifts from the schemas; `--check` only reports whether the file is current.
//
//   node generate-config-reader.ts [--check]
//
// The generator imports the package's sources, whose imports name `.js` files, so it is
// bundled with esbuild first (dependencies stay external: the built sections of the other
// packages), into node_modules/.cache, and imported from there.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = import.meta.dirname;
const target = path.join(root, "src/config/config-reader.generated.ts");
const cache = path.join(root, "node_modules/.cache/xzatoma-config-reader");
const bundle = path.join(cache, `generate-${process.pid}.mjs`);

mkdirSync(cache, { recursive: true });
try {
  await build({
    entryPoints: [path.join(root, "src/config/generate-config-reader.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    packages: "external",
    outfile: bundle,
    logLevel: "error",
  });
  const { configReaderSource } = (await import(pathToFileURL(bundle).href)) as {
    configReaderSource(): string;
  };
  const text = configReaderSource();
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {
    // not written yet
  }
  if (process.argv.includes("--check")) {
    if (current !== text) {
      console.error(
        `${path.relative(root, target)} is not what the schemas give; run this without --check`,
      );
      process.exitCode = 1;
    }
  } else if (current !== text) {
    writeFileSync(target, text);
    console.log(`wrote ${path.relative(root, target)}`);
  }
} finally {
  rmSync(bundle, { force: true });
}
