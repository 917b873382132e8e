/**
 * Every URL case of the shared security list, plus our own, run against the real guard:
 * real HTTP on 127.0.0.1 only. Nothing may reach the internet or real DNS:
 * - every name resolves through the injected test resolver, which rejects unknown names;
 *   `dns.lookup` is trapped, so a resolution that bypassed the guard's lookup would show;
 * - a target whose connect-time answer is not all-loopback (public or private addresses
 *   such as 93.184.215.14 or 169.254.169.254) is never connected to: for those the harness
 *   runs `guard.resolve`, the very check the guard's connector runs before a socket opens,
 *   and stops there. Targets whose answer is loopback go through a real `guard.fetch`.
 * - `https://evil.example/...` is the fixture server: the harness rewrites it to
 *   `http://evil.example:<port>/...`, and the guard allows exactly that host:port.
 *   The canary on 127.0.0.1 is allowed by nothing and must see zero connections.
 */
import dns from "node:dns";
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestResolver,
  startCanary,
  startFixtureServer,
  type RunningServer,
  type TestResolver,
} from "./fixtures.test-support.js";
import {
  checkMention,
  createGuardedFetch,
  UrlBlockedError,
  type GuardedFetch,
  type GuardedFetchOptions,
} from "./index.js";

type Outcome = "allow" | "confirm" | "block" | "error";
interface UrlCase {
  readonly id: string;
  readonly category: string;
  readonly input: string;
  readonly expected: Outcome;
  readonly reason: string;
}

const SHARED: readonly UrlCase[] = JSON.parse(
  readFileSync(new URL("../__fixtures__/url-cases.json", import.meta.url), "utf8"),
) as UrlCase[];

/** Our own cases. `{evil}` is the fixture server (allowed), `{canary}` the canary's port. */
const EXTRA: readonly UrlCase[] = [
  ["loopback", "http://[::ffff:7f00:1]/", "block", "IPv4-mapped loopback"],
  ["loopback", "http://2130706433/", "block", "decimal IPv4"],
  ["loopback", "HTTP://LOCALHOST", "block", "upper-case scheme and name"],
  ["loopback", "http://localhost./", "block", "trailing dot"],
  ["loopback", "http://api.localhost/", "block", ".localhost names are loopback (RFC 6761)"],
  ["loopback", "http://0x7f.1/", "block", "hex two-part IPv4"],
  ["loopback", "http://[0:0:0:0:0:0:127.0.0.1]/", "block", "IPv4-compatible dotted tail"],
  ["dns", "http://127.0.0.1.nip.io/", "block", "wildcard DNS to loopback"],
  ["dns", "http://mixed.example/", "block", "A records public and 10.0.0.1"],
  ["dns", "http://instance-data/latest/", "block", "AWS metadata name -> 169.254.169.254"],
  ["dns", "http://canary.test:{canary}/", "block", "confirmed port, name resolving to the canary"],
  ["dns", "http://evil.example:{canary}/", "block", "allowed host, but not on this port"],
  ["userinfo", "https://user@example.com/", "block", "user name"],
  ["userinfo", "https://user:pass@example.com/", "block", "user and password"],
  ["ipv6", "http://[64:ff9b::7f00:1]/", "block", "NAT64 of loopback"],
  ["ipv6", "http://[64:ff9b::5db8:d70e]/", "allow", "NAT64 of a public IPv4 (DNS64 networks)"],
  ["ipv6", "http://[64:ff9b:1::a00:1]/", "block", "local-use NAT64"],
  ["ipv6", "http://[2002:c000:204::1]/", "block", "6to4 is refused wholesale"],
  ["ipv6", "http://[::ffff:0:7f00:1]/", "block", "IPv4-translated (RFC 6145)"],
  ["ipv6", "http://[fd00:ec2::254]/", "block", "AWS metadata over IPv6"],
  ["ipv6", "http://[fe80::1]/", "block", "link-local"],
  ["ipv6", "http://[ff02::1]/", "block", "multicast"],
  ["ipv6", "http://[2001:db8::1]/", "block", "documentation"],
  ["ipv6", "http://[100::1]/", "block", "discard prefix"],
  ["ipv6", "http://[::]:{canary}/", "block", "unspecified, canary port"],
  ["private", "http://198.18.0.1/", "block", "benchmarking"],
  ["private", "http://100.64.0.1/", "block", "CGNAT"],
  ["private", "http://192.0.2.1/", "block", "documentation"],
  ["private", "http://224.0.0.1/", "block", "multicast"],
  ["private", "http://0.0.0.0:{canary}/", "block", "unspecified, canary port"],
  ["metadata", "http://168.63.129.16/", "block", "Azure WireServer"],
  ["metadata", "http://169.254.170.2/v2/credentials", "block", "ECS task credentials"],
  ["redirect", "{evil}/chain?n=6", "block", "six redirects, one too many"],
  ["redirect", "{evil}/chain?n=5", "allow", "five redirects are fine"],
  ["redirect", "{evil}/r?to=file:///etc/passwd", "block", "redirect to a file URL"],
  ["redirect", "{evil}/r?to=http://127.0.0.1:{canary}/", "block", "redirect to the canary"],
  ["redirect", "{evil}/r?to=http://evil.example:{canary}/", "block", "allowed host, other port"],
  ["redirect", "{evil}/r?to=http://[::1]:{canary}/", "block", "redirect to IPv6 loopback"],
  ["redirect", "{evil}/r?to=http://localtest.me/", "block", "redirect to a name for loopback"],
  ["redirect", "{evil}/r?to=/ok", "allow", "relative redirect on the same host"],
  ["scheme", "gopher://127.0.0.1:6379/_INFO", "block", "gopher"],
  ["scheme", "javascript:alert(1)", "block", "javascript"],
  ["port", "http://example.com:8080/", "confirm", "non-standard port"],
  ["port", "http://example.com:65536/", "block", "port out of range"],
  ["port", "http://127.0.0.1:{canary}/", "block", "loopback literal on the canary port"],
  ["resource", "{evil}/lying-length-plain", "allow", "framing stops the read at the declared 1 KB"],
  ["mention", "@https://example.com/", "confirm", "a mention always asks first"],
  ["mention", "@file:///etc/passwd", "block", "mention of a local file"],
  ["baseline", "https://EXAMPLE.com./path#frag", "allow", "case, trailing dot, fragment"],
].map(([category, input, expected, reason], index) => ({
  id: `X-${String(index + 1).padStart(3, "0")}`,
  category: category ?? "",
  input: input ?? "",
  expected: (expected ?? "") as Outcome,
  reason: reason ?? "",
}));

const PUBLIC = "93.184.215.14";
const RESOLVER_TABLE: Record<string, readonly (readonly string[])[]> = {
  "example.com": [[PUBLIC, "2606:2800:21f:cb07:6820:80da:af6b:8b2e"]],
  "evil.example": [["127.0.0.1"]],
  "localtest.me": [["127.0.0.1"]],
  "127.0.0.1.nip.io": [["127.0.0.1"]],
  "customer1.app.localhost.my.company.127.0.0.1.nip.io": [["127.0.0.1"]],
  "metadata.google.internal": [["169.254.169.254"]],
  "instance-data": [["169.254.169.254"]],
  // Public for the first answer, loopback ever after.
  "a.8.8.8.8.1time.127.0.0.1.forever.rebind.network": [["8.8.8.8"], ["127.0.0.1"]],
  "dualstack.evil.example": [[PUBLIC, "::1"]],
  "mixed.example": [[PUBLIC, "10.0.0.1"]],
  "canary.test": [["127.0.0.1"]],
};

let fixture: RunningServer;
let canary: RunningServer;
let resolver: TestResolver;
let guard: GuardedFetch;
let guardOptions: GuardedFetchOptions;
const realDnsLookups: string[] = [];
const originalDnsLookup = dns.lookup;

function expand(input: string): string {
  return input
    .replace(/^https:\/\/evil\.example\//, "{evil}/")
    .replaceAll("{evil}", `http://evil.example:${fixture.port}`)
    .replaceAll("{canary}", String(canary.port));
}

function isLoopback(address: string): boolean {
  return address === "::1" || /^127\./.test(address);
}

function outcomeOf(error: unknown): { outcome: Outcome; detail: string } {
  if (error instanceof UrlBlockedError) return { outcome: "block", detail: error.message };
  return { outcome: "error", detail: error instanceof Error ? error.message : String(error) };
}

/** Runs one case through the guard; a `confirm` counts as a person's yes. */
async function evaluate(input: string): Promise<{ outcome: Outcome; detail: string }> {
  const mention = input.startsWith("@");
  const target = expand(mention ? input.slice(1) : input);
  const decision = mention ? checkMention(target, guardOptions) : guard.check(target);
  if (decision.verdict === "block" || decision.url === undefined) {
    return { outcome: "block", detail: decision.reason };
  }
  const url = new URL(decision.url);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) === 0) {
    // A naive guard resolves once to check: the rebinding name answers "public" here.
    await resolver.lookup(host).catch(() => undefined);
  }
  const answer = isIP(host) === 0 ? (resolver.peek(host) ?? []) : [host];
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  try {
    if (answer.length === 0 || !answer.every(isLoopback)) {
      await guard.resolve(url.hostname, port); // the connector's own check; no socket opens
    } else {
      await guard.fetch(decision.url, { confirmed: decision.verdict === "confirm" });
    }
    return { outcome: decision.verdict, detail: decision.reason };
  } catch (error) {
    return outcomeOf(error);
  }
}

beforeAll(async () => {
  dns.lookup = ((hostname: string, ...rest: unknown[]) => {
    // Listening on 127.0.0.1 goes through dns.lookup too; only names are trapped.
    if (isIP(hostname) !== 0) {
      return (originalDnsLookup as (...args: unknown[]) => void)(hostname, ...rest);
    }
    realDnsLookups.push(hostname);
    const callback = rest.at(-1) as (error: Error) => void;
    callback(Object.assign(new Error("real DNS is trapped in this test"), { code: "ENOTFOUND" }));
  }) as typeof dns.lookup;
  fixture = await startFixtureServer();
  canary = await startCanary();
  resolver = createTestResolver(RESOLVER_TABLE);
  guardOptions = {
    lookup: resolver.lookup,
    allowHosts: [`evil.example:${fixture.port}`],
    timeoutMs: 2500,
  };
  guard = createGuardedFetch(guardOptions);
});

afterAll(async () => {
  dns.lookup = originalDnsLookup;
  await guard?.close();
  await fixture?.close();
  await canary?.close();
});

describe("URL cases", () => {
  it("judges every shared and extra case as expected; no block comes out allowed", async () => {
    const rows: {
      id: string;
      category: string;
      expected: Outcome;
      actual: Outcome;
      detail: string;
    }[] = [];
    for (const entry of [...SHARED, ...EXTRA]) {
      const { outcome, detail } = await evaluate(entry.input);
      rows.push({
        id: entry.id,
        category: entry.category,
        expected: entry.expected,
        actual: outcome,
        detail,
      });
    }
    // Per category: shared cases as expected / total, then our own.
    const tally = new Map<string, number[]>();
    for (const row of rows) {
      const counts = tally.get(row.category) ?? [0, 0, 0, 0];
      const offset = row.id.startsWith("URL-") ? 0 : 2;
      counts[offset] = (counts[offset] ?? 0) + (row.actual === row.expected ? 1 : 0);
      counts[offset + 1] = (counts[offset + 1] ?? 0) + 1;
      tally.set(row.category, counts);
    }
    const table = [...tally].map(
      ([category, [shared, sharedTotal, extra, extraTotal]]) =>
        `${category.padEnd(12)} shared ${shared}/${sharedTotal}  extra ${extra}/${extraTotal}`,
    );
    console.log(`URL cases as expected:\n${table.join("\n")}`);
    // URL_CASES_DEBUG=1 prints every case's outcome and why.
    if (process.env["URL_CASES_DEBUG"]) for (const r of rows) console.log(r.id, r.actual, r.detail);
    const wrong = rows.filter((row) => row.actual !== row.expected);
    expect(wrong).toEqual([]);
    expect(rows.filter((row) => row.expected === "block" && row.actual !== "block")).toEqual([]);
    expect(SHARED).toHaveLength(47);
    expect(EXTRA.length).toBeGreaterThanOrEqual(15);
  }, 20_000);

  it("never connected to the canary and never used real DNS", () => {
    expect(canary.connections).toBe(0);
    expect(realDnsLookups).toEqual([]);
  });
});
