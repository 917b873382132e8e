// Installed size of the CLI as a user gets it: every package published by `nx release publish`
// to a local registry (tools/registry/start.sh, empty storage), then `npm install @xzatoma/cli`
// in an empty project whose only registry is that one. What `npx @xzatoma/cli` downloads and
// unpacks. Target: under 50 MB. Then the same for an embedder that installs only the agent
// (`npm install @xzatoma/core @xzatoma/runtime` in a second empty project), with the Kafka and
// CloudEvents clients it must not bring (issue 31: the watcher's wiring lives outside the
// runtime).
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

/** What an embedder of the agent alone must not install. */
const UNWANTED_IN_EMBEDDER = ["kafkajs", "cloudevents", "watcher", "xzepr"];

const base = mkdtempSync(path.join(tmpdir(), "xz-size-"));

/** `npm install specs` into a new project `name` under `base`: its size and what it holds. */
function install(name: string, specs: readonly string[]) {
  const project = path.join(base, name);
  const environment = createRegistryProject(project, registry.url, path.join(base, "npm-cache"));
  installFromRegistry(project, environment, specs);
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
  return { project, bytes, installed, ours };
}

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

  const cli = install("project", ["@xzatoma/cli"]);
  const { bytes, installed, ours, project } = cli;
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

  const embedder = install("embedder", ["@xzatoma/core", "@xzatoma/runtime"]);
  const unwanted = embedder.installed
    .map((line) => path.basename(line))
    .filter((name) => UNWANTED_IN_EMBEDDER.includes(name));
  console.log(`install size of @xzatoma/core + @xzatoma/runtime (an embedder of the agent)`);
  console.log(
    `  node_modules        ${(embedder.bytes / 1e6).toFixed(1)} MB, ${embedder.installed.length} packages (${embedder.ours.length} of them @xzatoma: ${embedder.ours.map((line) => path.basename(line)).join(", ")})`,
  );
  console.log(
    `  Kafka / CloudEvents ${unwanted.length === 0 ? "none" : unwanted.join(", ")} (${UNWANTED_IN_EMBEDDER.join(", ")} expected absent)`,
  );
} finally {
  registry.stop();
  rmSync(base, { recursive: true, force: true });
}
