// Network through the egress proxy, with real bubblewrap, a real forwarder inside the
// sandbox and a scripted origin server on 127.0.0.1. Host names are mapped by a lookup
// the test controls, so each case says exactly which address a name has.
import { createHash } from "node:crypto";
import { once } from "node:events";
import { readdir, readlink } from "node:fs/promises";
import http from "node:http";
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
import type { EgressRefusal } from "./egress-report.js";

const sandbox = createSandbox();
const BIG_BYTES = 24 * 1024 * 1024;
const big = Buffer.alloc(BIG_BYTES);
for (let index = 0; index < BIG_BYTES; index += 4)
  big.writeUInt32LE((index * 2654435761) >>> 0, index);
const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

let origin: http.Server;
let port: number;
let workspace: string;
const requests: { host: string | undefined; url: string | undefined; connection?: string }[] = [];

/** Names as the test's "DNS" has them; every name looked up is recorded. */
const names: Record<string, string> = {
  "origin.test": "127.0.0.1",
  "loopback.test": "127.0.0.1",
  "metadata.test": "169.254.169.254",
};
const lookedUp: string[] = [];
const lookup: LookupFunction = (hostname) => {
  lookedUp.push(hostname);
  const address = names[hostname];
  if (address === undefined) {
    return Promise.reject(Object.assign(new Error(`${hostname} not found`), { code: "ENOTFOUND" }));
  }
  return Promise.resolve([{ address, family: 4 as const }]);
};

beforeAll(async () => {
  await sandbox.probe();
  expect(sandbox.kind).toBe("bubblewrap");
  origin = http.createServer((request, response) => {
    requests.push({
      host: request.headers.host,
      url: request.url,
      ...(request.headers.connection ? { connection: request.headers.connection } : {}),
    });
    if (request.url === "/big") {
      response.end(big);
      return;
    }
    if (request.url === "/upload") {
      const hash = createHash("sha256");
      let length = 0;
      request.on("data", (chunk: Buffer) => {
        hash.update(chunk);
        length += chunk.length;
      });
      request.on("end", () => response.end(`${length} ${hash.digest("hex")}\n`));
      return;
    }
    response.end(`hello ${request.headers.host ?? ""}\n`);
  });
  origin.listen(0, "127.0.0.1");
  await once(origin, "listening");
  port = (origin.address() as { port: number }).port;
  workspace = await makeWorkspace({ "README.md": "hi\n" });
});

afterAll(async () => {
  origin.closeAllConnections();
  origin.close();
  await removeWorkspace(workspace);
});

const onlyOrigin = (host: string, candidate: number) =>
  host === "origin.test" && candidate === port;

describe("a sandboxed command with egress", () => {
  it(
    "reaches an allowed host by plain HTTP and through a CONNECT tunnel, by name, with no DNS of its own",
    async () => {
      requests.length = 0;
      const result = await runConfined(
        sandbox,
        `curl -sS --fail http://origin.test:${port}/plain && curl -sS --fail --proxytunnel http://origin.test:${port}/tunnel && getent hosts origin.test || echo "no resolver"`,
        {
          workspace,
          egress: {
            allowHost: onlyOrigin,
            lookup,
            addresses: createAllowance({ allowHosts: [`origin.test:${port}`] }),
          },
        },
      );
      expect(result.stderr).toBe("");
      expect(result.stdout).toBe(
        `hello origin.test:${port}\nhello origin.test:${port}\nno resolver\n`,
      );
      expect(result.code).toBe(0);
      expect(requests.map((request) => request.url)).toEqual(["/plain", "/tunnel"]);
      // A forwarded plain request closes after its answer, so the next one is checked again.
      expect(requests[0]?.connection).toBe("close");
      expect(result.egress).toEqual({ refused: [], reached: [{ host: "origin.test", port }] });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "refuses a host that is not allowed without looking its name up, answers 403 with the reason, and reports it once",
    async () => {
      requests.length = 0;
      lookedUp.length = 0;
      const told: EgressRefusal[] = [];
      const result = await runConfined(
        sandbox,
        "curl -sS http://elsewhere.test/a; curl -sS http://elsewhere.test/b; curl -sS https://elsewhere.test/ 2>&1; echo",
        {
          workspace,
          egress: { allowHost: onlyOrigin, lookup, onRefused: (refusal) => told.push(refusal) },
        },
      );
      const reason = "it is not among the hosts allowed for this command";
      expect(result.stdout).toContain(`XZatoma's sandbox: refused elsewhere.test:80: ${reason}`);
      expect(result.stdout).toMatch(/CONNECT tunnel failed, response 403/);
      const expected = [
        { host: "elsewhere.test", port: 80, reason },
        { host: "elsewhere.test", port: 443, reason },
      ];
      expect(result.egress).toEqual({ refused: expected, reached: [] });
      expect(told).toEqual(expected);
      expect(lookedUp).toEqual([]);
      expect(requests).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "refuses an allowed name at a loopback or metadata address unless the URL guard's allowance lists it; metadata always",
    async () => {
      requests.length = 0;
      const command = `curl -sS http://loopback.test:${port}/l; curl -sS http://metadata.test:${port}/m`;
      const everyHost = () => true;
      const plain = await runConfined(sandbox, command, {
        workspace,
        egress: { allowHost: everyHost, lookup },
      });
      expect(plain.egress?.refused).toEqual([
        {
          host: "loopback.test",
          port,
          reason: "loopback.test resolves to 127.0.0.1, which is a loopback address",
        },
        {
          host: "metadata.test",
          port,
          reason: expect.stringMatching(
            /^metadata\.test resolves to 169\.254\.169\.254, which is a cloud metadata service/,
          ),
        },
      ]);
      expect(requests).toEqual([]);

      const listed = await runConfined(sandbox, command, {
        workspace,
        egress: {
          allowHost: everyHost,
          lookup,
          addresses: createAllowance({
            allowHosts: [`loopback.test:${port}`, `metadata.test:${port}`],
          }),
        },
      });
      expect(listed.stdout).toContain(`hello loopback.test:${port}\n`);
      expect(listed.egress?.reached).toEqual([{ host: "loopback.test", port }]);
      expect(listed.egress?.refused.map((refusal) => refusal.host)).toEqual(["metadata.test"]);
      expect(requests.map((request) => request.url)).toEqual(["/l"]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "carries large bodies whole both ways, through plain HTTP and a tunnel",
    async () => {
      const result = await runConfined(
        sandbox,
        [
          `curl -sS --fail http://origin.test:${port}/big | sha256sum`,
          `curl -sS --fail --proxytunnel http://origin.test:${port}/big | sha256sum`,
          "head -c 8388608 /dev/urandom > /tmp/upload",
          "sha256sum < /tmp/upload",
          `curl -sS --fail --data-binary @/tmp/upload http://origin.test:${port}/upload`,
        ].join(" && "),
        {
          workspace,
          egress: {
            allowHost: onlyOrigin,
            lookup,
            addresses: createAllowance({ allowHosts: [`origin.test:${port}`] }),
          },
        },
      );
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      const [plain, tunnel, uploaded, received] = result.stdout.trim().split("\n");
      expect(plain).toBe(`${sha256(big)}  -`);
      expect(tunnel).toBe(`${sha256(big)}  -`);
      expect(received).toBe(`8388608 ${uploaded?.split(" ")[0] ?? ""}`);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "cannot connect past the proxy: loopback is the sandbox's own and the only interface",
    async () => {
      requests.length = 0;
      const result = await runConfined(
        sandbox,
        [
          `curl -sS --noproxy '*' http://127.0.0.1:${port}/direct; echo "curl=$?"`,
          `node -e 'const s = require("net").connect(${port}, "127.0.0.1"); s.on("connect", () => { console.log("connected"); process.exit(0) }); s.on("error", (e) => { console.log(e.code); process.exit(0) })'`,
          `node -e 'console.log(Object.keys(require("os").networkInterfaces()).join(","))'`,
        ].join("; "),
        { workspace, egress: { allowHost: () => true, lookup } },
      );
      expect(result.stdout).toBe("curl=7\nECONNREFUSED\nlo\n");
      expect(requests).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "passes the command's output and exit status through the forwarder as without it",
    async () => {
      const command = "echo out; echo err >&2; exit 7";
      const withEgress = await runConfined(sandbox, command, {
        workspace,
        egress: { allowHost: () => false },
      });
      const without = await runConfined(sandbox, command, { workspace });
      expect(withEgress).toMatchObject({ code: 7, stdout: "out\n", stderr: "err\n" });
      expect(without).toMatchObject({ code: 7, stdout: "out\n", stderr: "err\n" });
      const killed = await runConfined(sandbox, "kill -TERM $$", {
        workspace,
        egress: { allowHost: () => false },
      });
      const killedWithout = await runConfined(sandbox, "kill -TERM $$", { workspace });
      expect(killedWithout.code).toBe(143);
      expect(killed.code).toBe(143);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "keeps the command's NODE_OPTIONS out of the forwarder and hands them to the command",
    async () => {
      const result = await runConfined(
        sandbox,
        `echo "$NODE_OPTIONS"; env | grep -c XZATOMA_; NODE_OPTIONS= curl -sS --fail http://origin.test:${port}/options`,
        {
          workspace,
          egress: {
            allowHost: onlyOrigin,
            lookup,
            addresses: createAllowance({ allowHosts: [`origin.test:${port}`] }),
          },
        },
        // A preload that does not exist: Node would stop at once if the forwarder loaded it.
        { env: { NODE_OPTIONS: "--require /nonexistent/preload.js" } },
      );
      expect(result.stdout).toBe(
        `--require /nonexistent/preload.js\n0\nhello origin.test:${port}\n`,
      );
      expect(result.code).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "writes reach the workspace through the overlay as without egress",
    async () => {
      const result = await runConfined(
        sandbox,
        `curl -sS --fail -o fetched.txt http://origin.test:${port}/file`,
        {
          workspace,
          egress: {
            allowHost: onlyOrigin,
            lookup,
            addresses: createAllowance({ allowHosts: [`origin.test:${port}`] }),
          },
        },
      );
      expect(result.code).toBe(0);
      expect(result.outcome.applied).toEqual(["fetched.txt"]);
    },
    TEST_TIMEOUT_MS,
  );

  it("keeps no pipe of a finished run open in XZatoma", async () => {
    // Every run above has finished: XZatoma holds none of their pipes any more.
    const links = await Promise.all(
      (await readdir("/proc/self/fd")).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => "")),
    );
    expect(links.filter((link) => link.includes("xzatoma-egress-"))).toEqual([]);
    const prepared = await sandbox.prepare(["true"], {
      workspace,
      cwd: workspace,
      egress: { allowHost: () => false },
    });
    const open = await Promise.all(
      (await readdir("/proc/self/fd")).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => "")),
    );
    // Prepared but never spawned: the pipes are open until finish().
    expect(open.filter((link) => link.includes("xzatoma-egress-")).length).toBe(4);
    await prepared.finish();
    const after = await Promise.all(
      (await readdir("/proc/self/fd")).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => "")),
    );
    expect(after.filter((link) => link.includes("xzatoma-egress-"))).toEqual([]);
  });
});

describe("a sandboxed command without egress", () => {
  it(
    "has no proxy variables and no network",
    async () => {
      const result = await runConfined(
        sandbox,
        `env | grep -ci proxy; curl -sS http://127.0.0.1:${port}/ 2>/dev/null; echo "curl=$?"`,
        { workspace },
      );
      expect(result.stdout).toBe("0\ncurl=7\n");
      expect(result.egress).toBeUndefined();
    },
    TEST_TIMEOUT_MS,
  );

  it("is refused when it asks for the whole network and egress at once", async () => {
    await expect(
      sandbox.prepare(["true"], {
        workspace,
        cwd: workspace,
        network: true,
        egress: { allowHost: () => true },
      }),
    ).rejects.toThrow(/either the whole network or egress/);
  });
});
