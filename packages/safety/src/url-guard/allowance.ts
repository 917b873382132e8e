/**
 * What the user has explicitly trusted: their own hosts (an intranet server, a local dev
 * server), address ranges and extra ports. Only configuration builds an allowance; nothing
 * the model sends can widen it.
 */
import ipaddr from "ipaddr.js";
import { isDeniedAddress, metadataReason, parseAddress } from "./address-policy.js";

/** The static part of the URL guard's configuration. */
export interface UrlGuardOptions {
  /**
   * Ports besides 80 and 443 that need no confirmation, for any host. A URL on another
   * port is `confirm`; port 0 is always `block`.
   */
  readonly allowedPorts?: readonly number[];
  /**
   * Hosts the user trusts, as `host` (ports 80 and 443) or `host:port` (that port only);
   * IPv6 literals in brackets (`[fd00::5]:8080`). Such a host may resolve to private or
   * loopback addresses; cloud metadata addresses stay refused.
   */
  readonly allowHosts?: readonly string[];
  /**
   * Address ranges the user trusts, in CIDR notation (`10.20.0.0/16`, `fd00:1::/64`):
   * addresses in them are not refused. Cloud metadata addresses stay refused.
   */
  readonly allowCidrs?: readonly string[];
}

/** A compiled {@link UrlGuardOptions}. */
export interface Allowance {
  /** True when `host:port` is one of the user's own hosts. `host` as {@link normaliseHost} gives it. */
  isAllowedHost(host: string, port: number): boolean;
  /** True when `port` needs no confirmation. */
  isPlainPort(port: number): boolean;
  /** Why connecting to `address` for `host:port` is refused, or undefined. */
  deniedAddress(address: string, host: string, port: number): string | undefined;
}

const DEFAULT_PORTS: readonly number[] = [80, 443];
const HOST_ENTRY = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/;

/** A URL host name without brackets, in lower case, without trailing dots. */
export function normaliseHost(host: string): string {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.+$/, "");
}

function parseHostEntry(entry: string): { host: string; port: number | undefined } {
  const match = HOST_ENTRY.exec(entry.trim());
  if (match === null)
    throw new TypeError(`allowHosts entry '${entry}' is not 'host' or 'host:port'.`);
  const [, rawHost = "", rawPort] = match;
  let host: string;
  try {
    // The same WHATWG parsing the guarded URLs get: IDNA, IPv4 forms, IPv6 compression.
    host = normaliseHost(new URL(`http://${rawHost}/`).hostname);
  } catch {
    throw new TypeError(`allowHosts entry '${entry}' has an invalid host.`);
  }
  const port = rawPort === undefined ? undefined : Number(rawPort);
  if (port !== undefined && (port < 1 || port > 65535)) {
    throw new TypeError(`allowHosts entry '${entry}' has an invalid port.`);
  }
  return { host, port };
}

function parseCidr(entry: string): readonly [ipaddr.IPv4 | ipaddr.IPv6, number] {
  try {
    return ipaddr.parseCIDR(entry.trim());
  } catch {
    throw new TypeError(`allowCidrs entry '${entry}' is not a CIDR range such as 10.0.0.0/8.`);
  }
}

function inRanges(
  address: string,
  cidrs: readonly (readonly [ipaddr.IPv4 | ipaddr.IPv6, number])[],
): boolean {
  const parsed = parseAddress(address);
  if (parsed === undefined) return false;
  const plain =
    parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
      ? (parsed as ipaddr.IPv6).toIPv4Address()
      : parsed;
  return cidrs.some(([base, bits]) => base.kind() === plain.kind() && plain.match(base, bits));
}

/** Compiles the options; throws a TypeError naming the first malformed entry. */
export function createAllowance(options: UrlGuardOptions = {}): Allowance {
  const hosts = (options.allowHosts ?? []).map(parseHostEntry);
  const cidrs = (options.allowCidrs ?? []).map(parseCidr);
  const ports = new Set([...DEFAULT_PORTS, ...(options.allowedPorts ?? [])]);
  const isAllowedHost = (host: string, port: number): boolean => {
    const wanted = normaliseHost(host);
    return hosts.some(
      (entry) =>
        entry.host === wanted &&
        (entry.port === undefined ? DEFAULT_PORTS.includes(port) : entry.port === port),
    );
  };
  return {
    isAllowedHost,
    isPlainPort: (port) => ports.has(port),
    deniedAddress(address, host, port) {
      if (parseAddress(address) === undefined) return isDeniedAddress(address);
      const metadata = metadataReason(address);
      if (metadata !== undefined) return metadata;
      if (isAllowedHost(host, port) || inRanges(address, cidrs)) return undefined;
      return isDeniedAddress(address);
    },
  };
}
