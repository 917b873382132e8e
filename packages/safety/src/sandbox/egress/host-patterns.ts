import { normaliseHost } from "../../url-guard/allowance.js";

const DEFAULT_PORTS: readonly number[] = [80, 443];
const ENTRY = /^(\*\.)?(\[[^\]]+\]|[^:[\]*]+)(?::(\d{1,5}))?$/;

interface HostPattern {
  readonly host: string;
  /** `*.host`: any name below `host`, not `host` itself. */
  readonly subdomains: boolean;
  readonly port: number | undefined;
}

function parseEntry(entry: string): HostPattern {
  const match = ENTRY.exec(entry.trim());
  if (match === null) {
    throw new TypeError(`egress host '${entry}' is not 'host', 'host:port' or '*.domain[:port]'.`);
  }
  const [, wildcard, rawHost = "", rawPort] = match;
  let host: string;
  try {
    host = normaliseHost(new URL(`http://${rawHost}/`).hostname);
  } catch {
    throw new TypeError(`egress host '${entry}' has an invalid host.`);
  }
  const port = rawPort === undefined ? undefined : Number(rawPort);
  if (port !== undefined && (port < 1 || port > 65535)) {
    throw new TypeError(`egress host '${entry}' has an invalid port.`);
  }
  if (wildcard !== undefined && (host.includes(":") || !host.includes("."))) {
    throw new TypeError(
      `egress host '${entry}': '*.' needs a domain with a dot, such as *.example.org.`,
    );
  }
  return { host, subdomains: wildcard !== undefined, port };
}

/**
 * Compiles a list of hosts into an `allowHost` for `SandboxEgress`: `host` (ports 80
 * and 443), `host:port` (that port only), `*.domain` (any name below the domain, not the
 * domain itself; ports 80 and 443) or `*.domain:port`; IPv6 in brackets. Names are
 * compared as URL hostnames (lower case, punycode). Throws a TypeError naming the first
 * malformed entry.
 *
 * @example
 * const allowHost = createEgressHostMatcher(["registry.example.org", "*.pkgfiles.example", "127.0.0.1:4873"]);
 * allowHost("files.pkgfiles.example", 443); // true
 * allowHost("registry.example.org", 8080); // false
 */
export function createEgressHostMatcher(
  entries: readonly string[],
): (host: string, port: number) => boolean {
  const patterns = entries.map(parseEntry);
  return (host, port) => {
    const wanted = normaliseHost(host);
    return patterns.some(
      (pattern) =>
        (pattern.subdomains ? wanted.endsWith(`.${pattern.host}`) : wanted === pattern.host) &&
        (pattern.port === undefined ? DEFAULT_PORTS.includes(port) : pattern.port === port),
    );
  };
}
