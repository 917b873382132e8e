// ARCHITECTURE.md's import-direction table says, package by package, what the lint rule in
// eslint.config.js lets it import. This test derives the same answer from the rule's
// depConstraints and the packages' tags, so the table cannot drift from what lint enforces.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
// Loaded by path: the workspace's lint configuration is not a package to import.
const { default: eslintConfig } = (await import(
  pathToFileURL(path.join(ROOT, "eslint.config.js")).href
)) as { default: { rules?: Record<string, unknown> }[] };

interface DepConstraint {
  sourceTag: string;
  onlyDependOnLibsWithTags?: string[];
  notDependOnLibsWithTags?: string[];
}

interface Project {
  /** `@xzatoma/core` for a library, `apps/cli` for an app: how the table names it. */
  label: string;
  tags: string[];
}

function projectsUnder(folder: "packages" | "apps"): Project[] {
  return readdirSync(path.join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const manifest = JSON.parse(
        readFileSync(path.join(ROOT, folder, entry.name, "package.json"), "utf8"),
      ) as { name: string; nx?: { tags?: string[] } };
      return {
        label: folder === "apps" ? `apps/${entry.name}` : manifest.name,
        tags: manifest.nx?.tags ?? [],
      };
    });
}

function depConstraints(): DepConstraint[] {
  for (const block of eslintConfig) {
    const rule = block.rules?.["@nx/enforce-module-boundaries"];
    if (Array.isArray(rule)) return (rule[1] as { depConstraints: DepConstraint[] }).depConstraints;
  }
  throw new Error("eslint.config.js has no @nx/enforce-module-boundaries rule");
}

/** The libraries `project` may import by the lint rule: every constraint on it must allow it. */
function allowedImports(project: Project, libraries: Project[]): string[] {
  const constraints = depConstraints().filter((c) => project.tags.includes(c.sourceTag));
  return libraries
    .filter((library) => library.label !== project.label)
    .filter((library) =>
      constraints.every(
        (c) =>
          (c.onlyDependOnLibsWithTags === undefined ||
            c.onlyDependOnLibsWithTags.includes("*") ||
            c.onlyDependOnLibsWithTags.some((tag) => library.tags.includes(tag))) &&
          !(c.notDependOnLibsWithTags ?? []).some((tag) => library.tags.includes(tag)),
      ),
    )
    .map((library) => library.label)
    .sort();
}

interface Row {
  layer: number;
  label: string;
  imports: string[];
}

/** The rows `| layer | package | may import |` of ARCHITECTURE.md's table. */
function documentedRows(libraries: Project[]): Row[] {
  const text = readFileSync(path.join(ROOT, "ARCHITECTURE.md"), "utf8");
  const rows: Row[] = [];
  for (const match of text.matchAll(/^\|\s*(\d+)\s*\|\s*`([^`]+)`\s*\|([^|\n]*)\|\s*$/gm)) {
    const cell = match[3]!.trim();
    const imports =
      cell === "nothing"
        ? []
        : cell === "any library"
          ? libraries.map((library) => library.label)
          : [...cell.matchAll(/`([^`]+)`/g)].map((name) => name[1]!);
    rows.push({ layer: Number(match[1]), label: match[2]!, imports: imports.sort() });
  }
  return rows;
}

describe("ARCHITECTURE.md's import-direction table", () => {
  const libraries = projectsUnder("packages");
  const projects = [...libraries, ...projectsUnder("apps")];
  const rows = documentedRows(libraries);

  it("has one row for every package and app", () => {
    expect(rows.map((row) => row.label).sort()).toEqual(
      projects.map((project) => project.label).sort(),
    );
  });

  it.each(projects.map((project) => [project.label, project] as const))(
    "gives %s exactly the imports eslint.config.js allows",
    (label, project) => {
      const row = rows.find((candidate) => candidate.label === label);
      expect(row?.imports).toEqual(allowedImports(project, libraries));
    },
  );

  it("puts every import in a lower layer", () => {
    const layer = new Map(rows.map((row) => [row.label, row.layer]));
    const upward = rows.flatMap((row) =>
      row.imports
        .filter((name) => (layer.get(name) ?? Infinity) >= row.layer)
        .map((name) => `${row.label} -> ${name}`),
    );
    expect(upward).toEqual([]);
  });
});
