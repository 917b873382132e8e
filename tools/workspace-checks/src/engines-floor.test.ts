// Every package and app says in `engines.node` the oldest Node it runs on; that cannot be
// older than what its own dependencies say (undici 8 needs 22.19, so XZatoma's floor is
// 22.19 although node:sqlite would run on 22.16). Each installed dependency's package.json is
// read from where Node resolves it for that package.
import { readdirSync, readFileSync, realpathSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

interface Manifest {
  name: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Manifest;

/** The lowest Node a `>=A.B.C` range admits, as [A, B, C]; undefined for other shapes. */
function floorOf(range: string | undefined): [number, number, number] | undefined {
  const match = /^\s*>=\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range ?? "");
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

const older = (a: number[], b: number[]) => {
  for (let index = 0; index < 3; index++)
    if ((a[index] ?? 0) !== (b[index] ?? 0)) return (a[index] ?? 0) < (b[index] ?? 0);
  return false;
};

/** The workspace's own packages and apps, by their package.json. */
function workspaceManifests(): string[] {
  return ["packages", "apps"].flatMap((group) =>
    readdirSync(path.join(ROOT, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(ROOT, group, entry.name, "package.json"))
      .filter((file) => existsSync(file)),
  );
}

it("no package or app claims an older Node than one of its dependencies needs", () => {
  const problems: string[] = [];
  for (const file of workspaceManifests()) {
    const manifest = read(file);
    const own = floorOf(manifest.engines?.node);
    if (!own) {
      problems.push(`${manifest.name}: engines.node is not ">=X.Y" (${manifest.engines?.node})`);
      continue;
    }
    const optional = manifest.peerDependenciesMeta ?? {};
    const names = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}).filter((name) => !optional[name]?.optional),
    ];
    for (const name of names) {
      const installed = path.join(path.dirname(file), "node_modules", name, "package.json");
      if (!existsSync(installed)) continue;
      const dependency = read(realpathSync(installed));
      const needed = floorOf(dependency.engines?.node);
      if (needed && older(own, needed))
        problems.push(
          `${manifest.name} says node ${manifest.engines?.node}, but ${name} needs ${dependency.engines?.node}`,
        );
    }
  }
  expect(problems).toEqual([]);
});
