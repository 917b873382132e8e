// A local npm registry (tools/registry/start.sh, Verdaccio on 127.0.0.1) with the workspace's
// packages published to it by `nx release publish`, and npm projects that install from it and
// nothing else: what a user meets through `npx @xzatoma/cli`. Used by the publish test and by
// the install-size benchmark.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The workspace root. */
export const WORKSPACE_ROOT = path.resolve(fileURLToPath(new URL("../../..", import.meta.url)));

/** A workspace package as its manifest describes it. */
export interface WorkspacePackage {
  readonly name: string;
  readonly version: string;
  /** Relative to the workspace root, e.g. `packages/core`. */
  readonly directory: string;
  readonly private: boolean;
}

/** Every package under packages/ and apps/, read from the manifests (nothing listed by hand). */
export function workspacePackages(): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const group of ["packages", "apps"]) {
    for (const entry of readdirSync(path.join(WORKSPACE_ROOT, group), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const directory = `${group}/${entry.name}`;
      let manifest: { name?: string; version?: string; private?: boolean };
      try {
        manifest = JSON.parse(
          readFileSync(path.join(WORKSPACE_ROOT, directory, "package.json"), "utf8"),
        ) as typeof manifest;
      } catch {
        continue; // not a package
      }
      if (!manifest.name || !manifest.version) continue;
      found.push({
        name: manifest.name,
        version: manifest.version,
        directory,
        private: manifest.private === true,
      });
    }
  }
  return found;
}

/** The packages a release publishes: every one that is not private. */
export function publishablePackages(): WorkspacePackage[] {
  return workspacePackages().filter((entry) => !entry.private);
}

/** A free TCP port on 127.0.0.1 (the registry script needs a number up front). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A registry started by tools/registry/start.sh. */
export interface LocalRegistry {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Its storage, log and pid directory. */
  readonly work: string;
  /** Stops it (tools/registry/stop.sh) and waits until it is gone. */
  stop(): void;
}

/**
 * The environment for npm, pnpm and Nx children: without the npm settings a parent package
 * manager or task runner put into the environment (an `npm_config_registry` there would win
 * over every .npmrc) and without Nx's task variables (the nested `nx release` is a run of its
 * own).
 */
export function cleanEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|NX_|pnpm_)/i.test(key)) continue;
    environment[key] = value;
  }
  return { ...environment, npm_config_update_notifier: "false", ...extra };
}

/**
 * Starts a registry whose storage lives in `work` (empty the first time, so nothing published
 * by an earlier run can stand in for this build) on a free port.
 */
export async function startLocalRegistry(work: string): Promise<LocalRegistry> {
  const port = await freePort();
  const environment = cleanEnvironment({
    REGISTRY_PORT: String(port),
    REGISTRY_WORK: work,
    // A loaded two-core machine may take a while to start it.
    REGISTRY_START_TIMEOUT: "180",
  });
  const output = execFileSync("bash", [path.join(WORKSPACE_ROOT, "tools/registry/start.sh")], {
    env: environment,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    timeout: 240_000,
  });
  const url = output.trim().split("\n").at(-1) ?? "";
  if (url !== `http://127.0.0.1:${port}`) {
    throw new Error(`tools/registry/start.sh printed '${url}', not the registry URL`);
  }
  return {
    url,
    port,
    work,
    stop() {
      execFileSync("bash", [path.join(WORKSPACE_ROOT, "tools/registry/stop.sh")], {
        env: environment,
        stdio: ["ignore", "ignore", "inherit"],
      });
    },
  };
}

/**
 * Runs Nx in the workspace with `args` and returns what it printed; a failure throws with
 * the error lines of its output and its end.
 */
export function runNx(args: readonly string[]): string {
  const result = spawnSync("npx", ["nx", ...args], {
    cwd: WORKSPACE_ROOT,
    env: cleanEnvironment({ NX_DAEMON: "false", NX_TUI: "false", FORCE_COLOR: "0" }),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
    timeout: 900_000,
  });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status !== 0) {
    // Nx names the failed task near the end; the build's own errors come before it.
    const errors = output
      .split("\n")
      .filter((line) => /error|failed|✖/i.test(line))
      .slice(-40);
    throw new Error(
      `nx ${args.join(" ")} exited with ${result.status ?? result.signal}:\n${errors.join("\n")}\n...\n${output.split("\n").slice(-30).join("\n")}`,
    );
  }
  return output;
}

/**
 * Publishes every release project, as already built, to `registryUrl` with `nx release
 * publish` (the versions already in the manifests; no git commit, no tag, no file written).
 * Returns what Nx printed.
 *
 * `--excludeTaskDependencies`: the test target that calls this depends on every package's
 * build, and a build run from here (restored from the cache or run again, tsup cleaning
 * `dist/` first) would rewrite the packages' `dist/` while other projects' tests spawn the
 * built CLI from it; those processes then failed to load and exited 1.
 */
export function publishWorkspace(registryUrl: string): string {
  return runNx(["release", "publish", `--registry=${registryUrl}`, "--excludeTaskDependencies"]);
}

/** What the registry holds of a package: its versions, or none when it does not have it. */
export async function registryVersions(registryUrl: string, name: string): Promise<string[]> {
  const response = await fetch(`${registryUrl}/${name.replace("/", "%2f")}`);
  if (response.status === 404) return [];
  if (!response.ok) throw new Error(`${registryUrl}: ${name} answered ${response.status}`);
  const packument = (await response.json()) as { versions?: Record<string, unknown> };
  return Object.keys(packument.versions ?? {});
}

/**
 * An npm project in `directory` whose only registry is `registryUrl` (its .npmrc, and a user
 * configuration of its own so ~/.npmrc plays no part) and whose npm cache is `cache`. Returns
 * the environment to run npm and npx in it with.
 */
export function createRegistryProject(
  directory: string,
  registryUrl: string,
  cache: string,
): NodeJS.ProcessEnv {
  mkdirSync(directory, { recursive: true });
  const npmrc = [
    `registry=${registryUrl}/`,
    `cache=${cache}`,
    "audit=false",
    "fund=false",
    "update-notifier=false",
    // Ask the registry again for every package document: one run's packages must never
    // come from a document an earlier run cached.
    "prefer-online=true",
    "",
  ].join("\n");
  writeFileSync(path.join(directory, ".npmrc"), npmrc);
  writeFileSync(path.join(directory, "user.npmrc"), npmrc);
  writeFileSync(
    path.join(directory, "package.json"),
    `${JSON.stringify({ name: "xzatoma-registry-check", private: true, type: "module" }, null, 2)}\n`,
  );
  return cleanEnvironment({ npm_config_userconfig: path.join(directory, "user.npmrc") });
}

/** `npm install` of `specs` into a project made by {@link createRegistryProject}. */
export function installFromRegistry(
  directory: string,
  environment: NodeJS.ProcessEnv,
  specs: readonly string[],
): void {
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...specs], {
    cwd: directory,
    env: environment,
    stdio: ["ignore", "ignore", "inherit"],
    timeout: 600_000,
  });
}
