// A package install through the egress proxy: the project's local npm registry
// (tools/registry/start.sh, Verdaccio on 127.0.0.1, no upstream) with one tiny package
// published to it, and `npm install` inside real bubblewrap.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, realpath, rm, writeFile, mkdir } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAllowance } from "../../url-guard/allowance.js";
import { createSandbox } from "../sandbox.js";
import {
  TEST_TIMEOUT_MS,
  makeWorkspace,
  removeWorkspace,
  runConfined,
} from "../sandbox.test-support.js";
import type { SandboxEgress } from "./egress-report.js";

const run = promisify(execFile);
const REPOSITORY = path.resolve(import.meta.dirname, "../../../../..");
const PACKAGE = "@xzatoma/egress-check";
/** Starting Verdaccio (and installing it once) on a loaded machine takes a while. */
const REGISTRY_SETUP_MS = 300_000;

const sandbox = createSandbox();
let base: string;
let port: number;
let registry: string;
let registryEnvironment: NodeJS.ProcessEnv;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** npm and the registry scripts without the npm settings of whatever started the tests. */
function cleanEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|NX_|pnpm_)/i.test(key)) environment[key] = value;
  }
  return { ...environment, npm_config_update_notifier: "false", ...extra };
}

beforeAll(async () => {
  await sandbox.probe();
  expect(sandbox.kind).toBe("bubblewrap");
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "xzatoma-egress-npm-")));
  port = await freePort();
  registryEnvironment = cleanEnvironment({
    REGISTRY_PORT: String(port),
    REGISTRY_WORK: path.join(base, "registry"),
    REGISTRY_UPLINK: "none",
    REGISTRY_START_TIMEOUT: "180",
    npm_config_userconfig: path.join(base, "user.npmrc"),
  });
  await writeFile(path.join(base, "user.npmrc"), "");
  const started = await run("bash", [path.join(REPOSITORY, "tools/registry/start.sh")], {
    env: registryEnvironment,
    timeout: REGISTRY_SETUP_MS - 30_000,
  });
  registry = started.stdout.trim().split("\n").at(-1) ?? "";
  expect(registry).toBe(`http://127.0.0.1:${port}`);

  const source = path.join(base, "package");
  await mkdir(source);
  await writeFile(
    path.join(source, "package.json"),
    JSON.stringify({ name: PACKAGE, version: "1.0.0", main: "index.js", license: "MIT" }),
  );
  await writeFile(path.join(source, "index.js"), 'module.exports = "installed through egress";\n');
  // The local registry lets anyone publish to @xzatoma; npm still wants some token.
  await run(
    "npm",
    [
      "publish",
      "--registry",
      registry,
      "--provenance=false",
      `--//127.0.0.1:${port}/:_authToken=local`,
    ],
    { cwd: source, env: registryEnvironment, timeout: 120_000 },
  );
}, REGISTRY_SETUP_MS);

afterAll(async () => {
  if (registryEnvironment) {
    await run("bash", [path.join(REPOSITORY, "tools/registry/stop.sh")], {
      env: registryEnvironment,
    }).catch(() => undefined);
  }
  if (base) await rm(base, { recursive: true, force: true });
});

const install = (workspace: string, egress: SandboxEgress) =>
  runConfined(
    sandbox,
    `npm install ${PACKAGE} --registry ${registry} --no-audit --no-fund --loglevel=error && node -p 'require("${PACKAGE}")'`,
    { workspace, egress, judge: () => undefined },
    { timeoutMs: 180_000 },
  );

const registryHost = () => ({ host: "127.0.0.1", port });

describe("npm install inside the sandbox", () => {
  it(
    "installs from a registry the user allowed, through the egress proxy, and the files reach the workspace",
    async () => {
      const workspace = await makeWorkspace({
        "package.json": '{ "name": "app", "private": true }\n',
      });
      try {
        const result = await install(workspace, {
          allowHost: (host, candidate) => host === "127.0.0.1" && candidate === port,
          // The registry is on the host's loopback: the user's allowance says it may be.
          addresses: createAllowance({ allowHosts: [`127.0.0.1:${port}`] }),
        });
        expect(result.stderr).toBe("");
        expect(result.stdout).toMatch(/^added 1 package\b/m);
        expect(result.stdout.trim().split("\n").at(-1)).toBe("installed through egress");
        expect(result.code).toBe(0);
        expect(result.egress).toEqual({ refused: [], reached: [registryHost()] });
        expect(result.outcome.applied).toContain("node_modules/@xzatoma/egress-check/index.js");
        await expect(
          readFile(path.join(workspace, "node_modules/@xzatoma/egress-check/index.js"), "utf8"),
        ).resolves.toContain("installed through egress");
        const manifest = JSON.parse(await readFile(path.join(workspace, "package.json"), "utf8"));
        expect(manifest).toMatchObject({ dependencies: { [PACKAGE]: "^1.0.0" } });
      } finally {
        await removeWorkspace(workspace);
      }
    },
    TEST_TIMEOUT_MS + 60_000,
  );

  it(
    "fails when the registry's host is not allowed, names the refused host, and changes nothing",
    async () => {
      const workspace = await makeWorkspace({
        "package.json": '{ "name": "app", "private": true }\n',
      });
      try {
        const result = await install(workspace, {
          allowHost: (host) => host === "registry.allowed.test",
          addresses: createAllowance({ allowHosts: [`127.0.0.1:${port}`] }),
        });
        expect(result.code).not.toBe(0);
        expect(result.stderr).toMatch(/403/);
        expect(result.egress).toEqual({
          refused: [
            {
              ...registryHost(),
              reason: "it is not among the hosts allowed for this command",
            },
          ],
          reached: [],
        });
        await expect(
          readFile(path.join(workspace, "node_modules/@xzatoma/egress-check/index.js")),
        ).rejects.toThrow(/ENOENT/);
      } finally {
        await removeWorkspace(workspace);
      }
    },
    TEST_TIMEOUT_MS + 60_000,
  );

  it(
    "cannot reach the registry by connecting directly, even with its host allowed",
    async () => {
      const workspace = await makeWorkspace();
      try {
        const result = await runConfined(
          sandbox,
          [
            `node -e 'require("net").connect(${port}, "127.0.0.1").on("connect", () => console.log("connected")).on("error", (e) => console.log(e.code))'`,
            `curl -sS --noproxy '*' ${registry}/-/ping >/dev/null 2>&1; echo "curl=$?"`,
          ].join("; "),
          {
            workspace,
            egress: {
              allowHost: () => true,
              addresses: createAllowance({ allowHosts: [`127.0.0.1:${port}`] }),
            },
          },
          { timeoutMs: 180_000 },
        );
        expect(result.stdout).toBe("ECONNREFUSED\ncurl=7\n");
        expect(result.egress).toEqual({ refused: [], reached: [] });
      } finally {
        await removeWorkspace(workspace);
      }
    },
    TEST_TIMEOUT_MS + 60_000,
  );
});
