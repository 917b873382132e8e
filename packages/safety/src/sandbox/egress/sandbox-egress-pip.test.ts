// pip through the egress proxy: a scripted package index (PEP 503) on 127.0.0.1, reached
// by a name the test's lookup maps, serving one tiny wheel built here; `pip install` runs
// inside real bubblewrap with that host allowed, and again with it not allowed.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAllowance } from "../../url-guard/allowance.js";
import type { LookupFunction } from "../../url-guard/guarded-lookup.js";
import { createSandbox } from "../sandbox.js";
import {
  TEST_TIMEOUT_MS,
  makeWorkspace,
  removeWorkspace,
  runConfined,
} from "../sandbox.test-support.js";

const WHEEL = "egress_check-1.0-py3-none-any.whl";
// A wheel is a zip with the package and its dist-info (METADATA, WHEEL, RECORD).
const BUILD_WHEEL = `
import base64, hashlib, sys, zipfile
files = {
    "egress_check/__init__.py": b'MESSAGE = "installed through egress"\\n',
    "egress_check-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\\nName: egress-check\\nVersion: 1.0\\n",
    "egress_check-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\\nGenerator: xzatoma-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
record = [p + ",sha256=" + base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b"=").decode() + "," + str(len(d)) for p, d in files.items()]
files["egress_check-1.0.dist-info/RECORD"] = ("\\n".join(record + ["egress_check-1.0.dist-info/RECORD,,"]) + "\\n").encode()
with zipfile.ZipFile(sys.argv[1], "w") as wheel:
    for p, d in files.items():
        wheel.writestr(p, d)
`;

const sandbox = createSandbox();
let base: string;
let wheel: Buffer;
let index: http.Server;
let port: number;
const served: string[] = [];
const lookup: LookupFunction = (hostname) =>
  hostname === "pypi.test"
    ? Promise.resolve([{ address: "127.0.0.1", family: 4 as const }])
    : Promise.reject(Object.assign(new Error(`${hostname} not found`), { code: "ENOTFOUND" }));

beforeAll(async () => {
  await sandbox.probe();
  expect(sandbox.kind).toBe("bubblewrap");
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "xzatoma-egress-pip-")));
  await promisify(execFile)("python3", ["-c", BUILD_WHEEL, path.join(base, WHEEL)]);
  wheel = await readFile(path.join(base, WHEEL));
  const digest = createHash("sha256").update(wheel).digest("hex");
  index = http.createServer((request, response) => {
    served.push(request.url ?? "");
    if (request.url === "/simple/egress-check/") {
      response.setHeader("content-type", "text/html");
      response.end(
        `<html><body><a href="/files/${WHEEL}#sha256=${digest}">${WHEEL}</a></body></html>`,
      );
    } else if (request.url === `/files/${WHEEL}`) {
      response.end(wheel);
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  index.listen(0, "127.0.0.1");
  await once(index, "listening");
  port = (index.address() as { port: number }).port;
});

afterAll(async () => {
  index?.closeAllConnections();
  index?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

const install = (workspace: string, allowed: boolean) =>
  runConfined(
    sandbox,
    [
      "python3 -m pip install --quiet --no-cache-dir --disable-pip-version-check",
      "--root-user-action=ignore --retries 0 --target vendor",
      `--index-url http://pypi.test:${port}/simple --trusted-host pypi.test:${port} egress-check`,
      `&& PYTHONPATH=vendor python3 -c 'import egress_check; print(egress_check.MESSAGE)'`,
    ].join(" "),
    {
      workspace,
      egress: {
        allowHost: (host, candidate) => allowed && host === "pypi.test" && candidate === port,
        lookup,
        addresses: createAllowance({ allowHosts: [`pypi.test:${port}`] }),
      },
    },
    { timeoutMs: 180_000 },
  );

describe("pip install inside the sandbox", () => {
  it(
    "installs from an index the user allowed, through the egress proxy, into the workspace",
    async () => {
      served.length = 0;
      const workspace = await makeWorkspace();
      try {
        const result = await install(workspace, true);
        expect(result.stderr).toBe("");
        expect(result.stdout).toBe("installed through egress\n");
        expect(result.code).toBe(0);
        expect(served).toEqual(["/simple/egress-check/", `/files/${WHEEL}`]);
        expect(result.egress).toEqual({ refused: [], reached: [{ host: "pypi.test", port }] });
        await expect(
          readFile(path.join(workspace, "vendor/egress_check/__init__.py"), "utf8"),
        ).resolves.toContain("installed through egress");
      } finally {
        await removeWorkspace(workspace);
      }
    },
    TEST_TIMEOUT_MS + 60_000,
  );

  it(
    "fails when the index's host is not allowed, and names it",
    async () => {
      served.length = 0;
      const workspace = await makeWorkspace();
      try {
        const result = await install(workspace, false);
        expect(result.code).not.toBe(0);
        expect(served).toEqual([]);
        expect(result.egress?.refused).toEqual([
          { host: "pypi.test", port, reason: "it is not among the hosts allowed for this command" },
        ]);
        expect(result.outcome.applied).toEqual([]);
      } finally {
        await removeWorkspace(workspace);
      }
    },
    TEST_TIMEOUT_MS + 60_000,
  );
});
