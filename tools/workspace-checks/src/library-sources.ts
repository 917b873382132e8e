// The source files of the published libraries, for checks that read them as text or syntax.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

/**
 * The TypeScript source files under `directory`: no declaration files, tests, test support
 * or `__fixtures__`.
 */
export function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "__fixtures__" ? [] : sourceFiles(full);
    const isSource =
      entry.name.endsWith(".ts") &&
      !entry.name.endsWith(".d.ts") &&
      !entry.name.endsWith(".test.ts") &&
      !entry.name.includes("test-support");
    return isSource ? [full] : [];
  });
}

/** The source files of every package under `<root>/packages` (each package's `src/`). */
export function librarySources(root: string): string[] {
  const packages = path.join(root, "packages");
  return readdirSync(packages, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(packages, entry.name, "src"))
    .filter((src) => existsSync(src))
    .flatMap((src) => sourceFiles(src));
}
