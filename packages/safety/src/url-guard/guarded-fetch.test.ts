// Behaviour of the guarded fetch beyond the shared cases. Real HTTP on 127.0.0.1 only;
// every name resolves through a test resolver that rejects unknown names.
import { buildConnector } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createTestResolver,
  startCanary,
  startFixtureServer,
  type RunningServer,
} from "./fixtures.test-support.js";
import { createAllowance } from "./allowance.js";
import { createGuardedConnector } from "./guarded-connector.js";
import { createGuardedFetch, UrlBlockedError, type GuardedFetch } from "./index.js";

let fixture: RunningServer;
let canary: RunningServer;
const open: GuardedFetch[] = [];

function guardFor(options: Parameters<typeof createGuardedFetch>[0] = {}): GuardedFetch {
  const guard = createGuardedFetch({
    lookup: createTestResolver({ "evil.example": [["127.0.0.1"]] }).lookup,
    allowHosts: [`evil.example:${fixture.port}`],
    timeoutMs: 2500,
    ...options,
  });
  open.push(guard);
  return guard;
}

const at = (path: string): string => `http://evil.example:${fixture.port}${path}`;

async function refusal(promise: Promise<unknown>): Promise<UrlBlockedError> {
  const error: unknown = await promise.then(
    () => new Error("expected a refusal"),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(UrlBlockedError);
  return error as UrlBlockedError;
}

beforeAll(async () => {
  fixture = await startFixtureServer();
  canary = await startCanary();
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((guard) => guard.close()));
});

afterAll(async () => {
  await fixture.close();
  await canary.close();
  expect(canary.connections).toBe(0);
});

describe("createGuardedFetch", () => {
  it("fetches an allowed host and reports the final URL and redirects", async () => {
    const response = await guardFor().fetch(at("/chain?n=2"));
    expect(response).toEqual({
      url: at("/chain?n=0"),
      status: 200,
      contentType: "text/plain",
      body: "end of the chain",
      bytes: 16,
      truncated: false,
      redirects: [at("/chain?n=1"), at("/chain?n=0")],
    });
  });

  it("refuses a confirm URL no one confirmed, before connecting", async () => {
    const before = fixture.connections;
    const guard = guardFor({ allowHosts: [], allowCidrs: ["127.0.0.1/32"] });
    const error = await refusal(guard.fetch(at("/ok")));
    expect(error.refusal).toBe("needs-confirmation");
    expect(fixture.connections).toBe(before);
    // Confirmed, it is fetched, and redirects on the confirmed origin are followed.
    const response = await guard.fetch(at("/chain?n=1"), { confirmed: true });
    expect(response.body).toBe("end of the chain");
  });

  it("keeps the first maxBytes bytes when asked to truncate", async () => {
    const response = await guardFor({ onLimit: "truncate", maxBytes: 1000 }).fetch(
      at("/gzip-bomb"),
    );
    expect(response).toMatchObject({ bytes: 1000, truncated: true });
  });

  it("reads a lying plain Content-Length response only up to the declared length", async () => {
    const response = await guardFor().fetch(at("/lying-length-plain"));
    expect(response).toMatchObject({ bytes: 1024, truncated: false });
  });

  it("stops an endless response at the cap and a slow one at the deadline", async () => {
    const guard = guardFor({ maxBytes: 50_000, timeoutMs: 1500 });
    expect((await refusal(guard.fetch(at("/infinite-chunked")))).refusal).toBe("too-large");
    const started = Date.now();
    expect((await refusal(guard.fetch(at("/slowloris")))).refusal).toBe("timeout");
    // The server would take 1,000 s to send its body; the refusal came from the deadline.
    // The bound is loose so that a loaded machine cannot fail it.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("gives the caller's abort reason, not a refusal, when the outer signal aborts", async () => {
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    setTimeout(() => controller.abort(reason), 200);
    const started = Date.now();
    await expect(
      guardFor({ timeoutMs: 10_000 }).fetch(at("/slowloris"), { signal: controller.signal }),
    ).rejects.toBe(reason);
    // Well before the guard's own 10 s deadline: the caller's abort ended it.
    expect(Date.now() - started).toBeLessThan(9_000);
  });

  it("resolves each connection once and connects to that answer (no rebinding)", async () => {
    // 127.0.0.2 stands in for a public address (allowed by range); the second answer is
    // the canary's 127.0.0.1. A guard that checked one resolution and connected with
    // another would reach the canary.
    const resolver = createTestResolver({ "rebind.test": [["127.0.0.2"], ["127.0.0.1"]] });
    const guard = guardFor({
      lookup: resolver.lookup,
      allowCidrs: ["127.0.0.2/32"],
      allowedPorts: [canary.port],
    });
    await expect(guard.fetch(`http://rebind.test:${canary.port}/`)).rejects.toThrow(
      /Could not fetch/,
    );
    expect(resolver.calls).toEqual(["rebind.test"]);
    expect(canary.connections).toBe(0);
  });

  it("fails closed on unknown names without touching the network", async () => {
    const resolver = createTestResolver({});
    const guard = guardFor({ lookup: resolver.lookup, allowHosts: [] });
    await expect(guard.fetch("http://unknown.test/")).rejects.toThrow(/unknown\.test is unknown/);
    expect(resolver.calls).toEqual(["unknown.test"]);
  });

  it("ignores proxy environment variables", async () => {
    const proxy = `http://127.0.0.1:${canary.port}`;
    const names = ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"];
    for (const name of names) vi.stubEnv(name, proxy);
    vi.stubEnv("NO_PROXY", "");
    try {
      expect((await guardFor().fetch(at("/ok"))).body).toBe("ok");
    } finally {
      vi.unstubAllEnvs();
    }
    expect(canary.connections).toBe(0);
  });

  it("checks IP-literal targets in the connector too, not only in checkUrl", async () => {
    const connect = createGuardedConnector(
      {
        allowance: createAllowance(),
        lookup: createTestResolver({}).lookup,
        connectTimeoutMs: 1000,
      },
      buildConnector,
    );
    const error = await new Promise<Error | null>((resolve) => {
      const target = { hostname: "127.0.0.1", protocol: "http:", port: String(canary.port) };
      connect(target, (...result) => {
        result[1]?.destroy();
        resolve(result[0]);
      });
    });
    expect(error).toBeInstanceOf(UrlBlockedError);
    expect(canary.connections).toBe(0);
  });

  it("exposes the connector's check without connecting", async () => {
    const guard = guardFor({
      lookup: createTestResolver({ "two.test": [["93.184.215.14", "10.0.0.1"]] }).lookup,
    });
    const error = await refusal(guard.resolve("two.test", 443));
    expect(error.message).toBe(
      "Refused to fetch two.test:443: two.test resolves to 10.0.0.1, which is a private (RFC 1918) address",
    );
  });
});
