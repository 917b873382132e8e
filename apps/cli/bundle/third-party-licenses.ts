import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Metafile } from "esbuild";

/** One third-party package whose code is in the bundle. */
export interface BundledPackage {
  readonly name: string;
  readonly version: string;
  readonly license: string;
  /** The text of its licence file, or undefined when the package ships none. */
  readonly text: string | undefined;
}

/** The folder of the package that holds `file` (the last `node_modules/<name>` on its path). */
function packageFolder(file: string): string | undefined {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const length = parts[at + 1]?.startsWith("@") ? 2 : 1;
  return parts.slice(0, at + 1 + length).join("/");
}

const LICENSE_FILE = /^(licen[cs]e|copying)(\.(md|txt|markdown))?$/i;

/**
 * The third-party packages whose files are inputs of the bundle (from esbuild's metafile,
 * paths relative to `workingDirectory`), each with its licence text, sorted by name.
 * A package with no licence file and no `license` field fails the build: what cannot be
 * attributed is not shipped.
 */
export function bundledPackages(metafile: Metafile, workingDirectory: string): BundledPackage[] {
  const folders = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const folder = packageFolder(input);
    if (folder) folders.add(path.resolve(workingDirectory, folder));
  }
  const packages = new Map<string, BundledPackage>();
  for (const folder of folders) {
    const manifest = JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8")) as {
      name: string;
      version: string;
      license?: string;
    };
    const file = readdirSync(folder).find((name) => LICENSE_FILE.test(name));
    const text = file ? readFileSync(path.join(folder, file), "utf8").trim() : undefined;
    if (!manifest.license && !text)
      throw new Error(`${manifest.name}@${manifest.version} (${folder}) names no licence`);
    packages.set(`${manifest.name}@${manifest.version}`, {
      name: manifest.name,
      version: manifest.version,
      license: manifest.license ?? "see the licence text",
      text,
    });
  }
  return [...packages.values()].sort((a, b) =>
    a.name === b.name ? a.version.localeCompare(b.version) : a.name.localeCompare(b.name),
  );
}

/** `THIRD_PARTY_LICENSES.md`: what the bundle holds, then each package's licence. */
export function thirdPartyLicenses(packageName: string, packages: readonly BundledPackage[]) {
  const lines = [
    `# Third-party code bundled into ${packageName}`,
    "",
    `\`dist/\` holds the parts of the following ${packages.length} packages that the command uses, ` +
      "bundled at build time together with XZatoma's own libraries. Each is listed with its " +
      "licence as the package ships it.",
    "",
    ...packages.map((entry) => `- ${entry.name} ${entry.version} (${entry.license})`),
  ];
  for (const entry of packages) {
    lines.push("", `## ${entry.name} ${entry.version} (${entry.license})`, "");
    lines.push(
      entry.text === undefined
        ? `The package ships no licence file; its package.json names the licence ${entry.license}.`
        : ["````", entry.text, "````"].join("\n"),
    );
  }
  return `${lines.join("\n")}\n`;
}
