// The container image build (deploy/watcher/Dockerfile) and the Kubernetes example
// (deploy/watcher/kubernetes.yaml) against the repository they ship: what the Dockerfile
// copies exists and is not ignored, the names it builds and deploys are the app's, the
// entry point is the bin the deploy puts there, and `pnpm deploy` (the build stage's last
// step) gives a directory whose bin runs. deploy-image.e2e.test.ts builds the image with
// deploy/watcher/build-image.sh and runs it against a broker.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DOCKERFILE = readFileSync(path.join(ROOT, "deploy/watcher/Dockerfile"), "utf8");
const IGNORED = readFileSync(path.join(ROOT, "deploy/watcher/Dockerfile.dockerignore"), "utf8")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "" && !line.startsWith("#"));
const KUBERNETES = readFileSync(path.join(ROOT, "deploy/watcher/kubernetes.yaml"), "utf8");
const MANIFEST = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  name: string;
  bin: Record<string, string>;
  nx: { name: string };
};

/** The Dockerfile's instructions, continuation lines joined, comments left out. */
const instructions = DOCKERFILE.replace(/\\\n/g, " ")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "" && !line.startsWith("#"));

/** The stages: each FROM and the instructions after it. */
const stages = instructions.reduce<string[][]>((all, line) => {
  if (/^FROM /i.test(line)) all.push([line]);
  else all.at(-1)?.push(line);
  return all;
}, []);

/** Whether a path of the build context is left out by the ignore file (its simple patterns). */
function ignored(file: string): boolean {
  const parts = file.split("/").filter(Boolean);
  return IGNORED.some((pattern) => {
    if (pattern.startsWith("**/")) return parts.includes(pattern.slice(3));
    return parts[0] === pattern.replace(/\/$/, "");
  });
}

describe("deploy/watcher/Dockerfile", () => {
  const work = mkdtempSync(path.join(os.tmpdir(), "xz-watcher-deploy-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("copies only what exists in the repository and is not ignored", () => {
    const copies = instructions.filter((line) => /^COPY /i.test(line) && !/--from=/i.test(line));
    expect(copies.length).toBeGreaterThan(3);
    for (const copy of copies) {
      const sources = copy.split(/\s+/).slice(1, -1);
      for (const source of sources) {
        expect(existsSync(path.join(ROOT, source)), `${source} (${copy})`).toBe(true);
        expect(ignored(source), `${source} is in Dockerfile.dockerignore`).toBe(false);
      }
    }
    // Every workspace project is there, as a whole or by its manifest: the lockfile names them all.
    const workspace = readFileSync(path.join(ROOT, "pnpm-workspace.yaml"), "utf8");
    const projectsBlock = /^packages:\n((?: {2}- \S+\n)+)/m.exec(workspace)?.[1] ?? "";
    const globs = [...projectsBlock.matchAll(/^ {2}- (\S+)$/gm)].map((match) => match[1] ?? "");
    expect(globs.length).toBeGreaterThan(0);
    const copied = copies.flatMap((line) => line.split(/\s+/).slice(1, -1));
    for (const glob of globs) {
      const base = glob.replace(/\/\*$/, "");
      const projects = glob.endsWith("/*")
        ? execFileSync("ls", [path.join(ROOT, base)], { encoding: "utf8" })
            .split("\n")
            .filter((name) => existsSync(path.join(ROOT, base, name, "package.json")))
            .map((name) => `${base}/${name}`)
        : [base];
      for (const project of projects) {
        expect(
          copied.some(
            (source) =>
              source === `${project}/package.json` ||
              `${project}/`.startsWith(source.endsWith("/") ? source : `${source}/`),
          ),
          `${project} is not copied`,
        ).toBe(true);
      }
    }
    expect(copied).toEqual(expect.arrayContaining(["pnpm-lock.yaml", "patches/"]));
  });

  it("builds and deploys the watcher app by its own names, and runs its bin as a non-root user with bubblewrap", () => {
    const build = stages.find((stage) => /^FROM \S+ AS build$/i.test(stage[0] ?? "")) ?? [];
    const runtime = stages.at(-1) ?? [];
    expect(build.join("\n")).toContain(`nx run ${MANIFEST.nx.name}:build`);
    expect(build.join("\n")).toContain(`--filter ${MANIFEST.name} deploy --prod /out`);
    expect(build.join("\n")).toContain(`--filter "${MANIFEST.name}..."`);
    // build-image.sh's BUILD_STAGE=0 points this one line at an image of a host-built deploy.
    const copy = runtime.filter((line) => /^COPY --from=/.test(line));
    expect(copy).toEqual(["COPY --from=build /out /opt/xzatoma-watcher"]);
    const bin = MANIFEST.bin["xzatoma-watcher"] ?? "";
    const entrypoint = JSON.parse(
      runtime.find((line) => line.startsWith("ENTRYPOINT "))?.slice("ENTRYPOINT ".length) ?? "[]",
    ) as string[];
    expect(entrypoint).toEqual([
      "tini",
      "--",
      "node",
      path.posix.join("/opt/xzatoma-watcher", bin),
    ]);
    expect(runtime.join("\n")).toMatch(/apt-get install [^\n]*\bbubblewrap\b/);
    expect(runtime.join("\n")).toMatch(/apt-get install [^\n]*\btini\b/);
    const user = runtime.find((line) => line.startsWith("USER "));
    expect(user).toBe("USER 10001:10001");
    expect(runtime).toContain("STOPSIGNAL SIGTERM");
    expect(runtime).toContain("EXPOSE 9464");
  });

  it("pnpm deploy, the build stage's last step, gives a directory whose bin runs on its own", () => {
    const out = path.join(work, "out");
    const deploy = spawnSync(
      "pnpm",
      ["--filter", MANIFEST.name, "deploy", "--prod", "--offline", out],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(deploy.status, deploy.stderr).toBe(0);
    const bin = path.join(out, MANIFEST.bin["xzatoma-watcher"] ?? "");
    // Outside the checkout's node_modules: only what the deploy put there resolves.
    const version = spawnSync(process.execPath, [bin, "--version"], {
      cwd: work,
      encoding: "utf8",
    });
    expect(version.stdout).toMatch(/^xzatoma-watcher \d+\.\d+\.\d+\n$/);
    const help = spawnSync(process.execPath, [bin, "dlq", "--help"], {
      cwd: work,
      encoding: "utf8",
    });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: xzatoma-watcher dlq ");
    // It loads the whole service: a configuration with a broker nobody listens on fails to
    // start with the service's own message, not with a missing module.
    const config = path.join(work, "config.json");
    execFileSync("sh", [
      "-c",
      `printf '%s' '{"watcher":{"kafka":{"brokers":"127.0.0.1:9"}}}' > ${config}`,
    ]);
    const run = spawnSync(process.execPath, [bin, "run", "--config", config, "--workspace", work], {
      cwd: work,
      encoding: "utf8",
      env: { ...process.env, XZATOMA_HOME: work },
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("could not reach Kafka at 127.0.0.1:9");
  }, 300_000);
});

describe("deploy/watcher/kubernetes.yaml", () => {
  it("runs a StatefulSet whose pods take their names as instance ids, with probes and a Prometheus scrape", () => {
    expect(KUBERNETES).toMatch(/^kind: StatefulSet$/m);
    expect(KUBERNETES).toMatch(
      /- name: XZATOMA_WATCHER_KAFKA_INSTANCE_ID\n\s+valueFrom: \{ fieldRef: \{ fieldPath: metadata\.name \} \}/,
    );
    expect(KUBERNETES).toContain(
      "startupProbe:\n            httpGet: { path: /healthz, port: health }",
    );
    expect(KUBERNETES).toContain(
      "livenessProbe:\n            httpGet: { path: /healthz, port: health }",
    );
    expect(KUBERNETES).toContain(
      "readinessProbe:\n            httpGet: { path: /readyz, port: health }",
    );
    expect(KUBERNETES).toContain('prometheus.io/scrape: "true"');
    expect(KUBERNETES).toContain('prometheus.io/port: "9464"');
    expect(KUBERNETES).toContain("prometheus.io/path: /metrics");
    // The port the probes and the scrape use is the one the configuration serves on, on all
    // addresses of the pod, and the one the image exposes.
    expect(KUBERNETES).toContain("health: { port: 9464, host: 0.0.0.0 }");
    expect(KUBERNETES).toContain("- { name: health, containerPort: 9464 }");
    // Enough time for the grace and the stop's bound after it.
    const grace = Number(/shutdown_grace_secs: (\d+)/.exec(KUBERNETES)?.[1]);
    const termination = Number(/terminationGracePeriodSeconds: (\d+)/.exec(KUBERNETES)?.[1]);
    expect(termination).toBeGreaterThan(grace + 15);
    // The arguments the image's entry point gets.
    expect(KUBERNETES).toContain(
      "args: [run, --config, /etc/xzatoma-watcher/config.yaml, --workspace, /workspace]",
    );
  });
});
