// Installed size of the CLI as a user gets it: every package published by `nx release publish`
// to a local registry (tools/registry/start.sh, empty storage), then `npm install @xzatoma/cli`
// in an empty project whose only registry is that one. What `npx @xzatoma/cli` downloads and
// unpacks. Target: under 50 MB.
//
//   node bench/install-size.ts
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createRegistryProject,
  installFromRegistry,
  publishablePackages,
  publishWorkspace,
  startLocalRegistry,
} from "../tools/workspace-checks/src/local-registry.ts";

const base = mkdtempSync(path.join(tmpdir(), "xz-size-"));
const registry = await startLocalRegistry(path.join(base, "registry"));
try {
  publishWorkspace(registry.url);
  let packed = 0;
  const published = publishablePackages();
  for (const entry of published) {
    const packument = (await (
      await fetch(`${registry.url}/${entry.name.replace("/", "%2f")}`)
    ).json()) as { versions: Record<string, { dist: { tarball: string } }> };
    const tarball = packument.versions[entry.version]?.dist.tarball;
    if (!tarball) throw new Error(`${entry.name}@${entry.version} is not in the registry`);
    packed += (await (await fetch(tarball)).arrayBuffer()).byteLength;
  }

  const project = path.join(base, "project");
  const environment = createRegistryProject(project, registry.url, path.join(base, "npm-cache"));
  installFromRegistry(project, environment, ["@xzatoma/cli"]);
  const bytes = Number(
    execFileSync("du", ["-sb", path.join(project, "node_modules")], { encoding: "utf8" }).split(
      "\t",
    )[0],
  );
  const installed = execFileSync("npm", ["ls", "--all", "--parseable"], {
    cwd: project,
    env: environment,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .slice(1);
  const ours = installed.filter((line) => line.includes(`${path.sep}@xzatoma${path.sep}`));
  console.log(
    `install size of @xzatoma/cli (npm install from a local registry, nx release publish)`,
  );
  console.log(
    `  published           ${(packed / 1024).toFixed(1)} KiB of tarballs in ${published.length} packages`,
  );
  console.log(
    `  node_modules        ${(bytes / 1e6).toFixed(1)} MB, ${installed.length} packages (${ours.length} of them @xzatoma) (target < 50 MB)`,
  );
  const heaviest = execFileSync(
    "sh",
    ["-c", `du -sb node_modules/* node_modules/@*/* 2>/dev/null | sort -rn | head -5`],
    { cwd: project, encoding: "utf8" },
  );
  console.log(`  largest:\n${heaviest.trimEnd().replace(/^/gm, "    ")}`);
} finally {
  registry.stop();
  rmSync(base, { recursive: true, force: true });
}
