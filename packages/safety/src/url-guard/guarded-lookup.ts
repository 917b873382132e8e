/**
 * The connect-time half of the URL guard: the one DNS resolution a connection uses is the
 * one that is checked, every address of it, so a name cannot answer "public" to a check
 * and "private" to the connect (DNS rebinding).
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction as NetLookupFunction } from "node:net";
import { normaliseHost, type Allowance } from "./allowance.js";
import { UrlBlockedError } from "./url-blocked-error.js";

/** One resolved address. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/**
 * Resolves a host name to all its addresses (A and AAAA). Inject one to control name
 * resolution (tests map names to fixtures; unknown names should reject).
 */
export type LookupFunction = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver (`dns.lookup` with `all: true`, in the order the system gives). */
export const systemLookup: LookupFunction = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, order: "verbatim" }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses.map(toResolved));
    });
  });

function toResolved(entry: LookupAddress): ResolvedAddress {
  return { address: entry.address, family: entry.family === 6 ? 6 : 4 };
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${hostname} has no addresses`);
  error.code = "ENOTFOUND";
  return error;
}

function describeTarget(hostname: string, port: number): string {
  return `${isIP(hostname) === 6 ? `[${hostname}]` : hostname}:${port}`;
}

/**
 * Resolves `hostname` for a connection to `port` and returns its addresses, or throws
 * {@link UrlBlockedError} when any of them is refused: one private answer among public
 * ones refuses the host. IP literals are checked without resolving.
 */
export async function resolveAllowedAddresses(
  hostname: string,
  port: number,
  allowance: Allowance,
  lookup: LookupFunction = systemLookup,
): Promise<readonly ResolvedAddress[]> {
  const host = normaliseHost(hostname);
  const family = isIP(host);
  const answer: readonly ResolvedAddress[] =
    family === 0 ? await lookup(host) : [{ address: host, family: family === 6 ? 6 : 4 }];
  // The family is taken from the address itself, never from the resolver's say-so.
  const addresses = answer.map(({ address }) => ({
    address,
    family: isIP(address) === 6 ? (6 as const) : (4 as const),
  }));
  if (addresses.length === 0) throw notFound(host);
  for (const { address } of addresses) {
    const denied = allowance.deniedAddress(address, host, port);
    if (denied !== undefined) {
      const via = family === 0 ? `${host} resolves to ${address}, which is` : `${host} is`;
      throw new UrlBlockedError(`${via} ${denied}`, describeTarget(host, port), "address");
    }
  }
  return addresses;
}

/**
 * A `net.connect` lookup for connections to `port` that resolves through
 * {@link resolveAllowedAddresses}: a refused address fails the connection before any
 * socket opens.
 */
export function createConnectLookup(
  port: number,
  allowance: Allowance,
  lookup: LookupFunction,
): NetLookupFunction {
  return (hostname, options, callback) => {
    resolveAllowedAddresses(hostname, port, allowance, lookup).then(
      (addresses) => {
        const family =
          options.family === "IPv6" ? 6 : options.family === "IPv4" ? 4 : options.family;
        const wanted =
          family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        const first = wanted[0];
        if (first === undefined) callback(notFound(hostname), "");
        else if (options.all === true)
          callback(
            null,
            wanted.map((a) => ({ ...a })),
          );
        else callback(null, first.address, first.family);
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), "");
      },
    );
  };
}
