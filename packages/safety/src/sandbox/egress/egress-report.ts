import type { Allowance, LookupFunction } from "../../url-guard/index.js";

/**
 * Network for one sandboxed command through XZatoma's egress proxy: the command keeps its
 * own network namespace (loopback only) and reaches other hosts only through the proxy,
 * which admits the hosts `allowHost` accepts. See `docs/explanation/sandbox-network.md`.
 */
export interface SandboxEgress {
  /**
   * Whether the command may connect to `host` on `port`. `host` is normalised as a URL's
   * hostname: lower case, IDNA as punycode, IPv4 dotted, IPv6 without brackets. Called
   * before the name is resolved, so a refused name is never looked up.
   */
  allowHost(host: string, port: number): boolean;
  /**
   * Which resolved addresses are refused, from the URL guard (`createAllowance`). Default:
   * `createAllowance()`, public unicast addresses only, so an allowed name that resolves
   * to a loopback, private, link-local or metadata address is refused. A host listed in
   * its `allowHosts` (or an address in its `allowCidrs`) may be private or loopback (the
   * host's own loopback: the proxy runs outside the sandbox); metadata addresses never.
   */
  readonly addresses?: Allowance;
  /** Name resolution on the host. Default: the system resolver (`dns.lookup`). */
  readonly lookup?: LookupFunction;
  /** Called at once for every refused connection (also recorded in the report). */
  readonly onRefused?: (refusal: EgressRefusal) => void;
}

/** A connection the proxy refused. */
export interface EgressRefusal {
  readonly host: string;
  readonly port: number;
  /** Why, as one clause for the model and the person. */
  readonly reason: string;
}

/** A host the command reached through the proxy. */
export interface EgressConnection {
  readonly host: string;
  readonly port: number;
}

/**
 * What the egress proxy saw during one command, each entry once (the first 100 of each
 * kind). It fills while the command runs and is complete after `finish()`.
 */
export interface EgressReport {
  readonly refused: readonly EgressRefusal[];
  readonly reached: readonly EgressConnection[];
}

const MAX_ENTRIES = 100;

/** The proxy's report and the calls that fill it. */
export interface EgressRecorder {
  readonly report: EgressReport;
  refuse(refusal: EgressRefusal): void;
  reach(connection: EgressConnection): void;
}

/** A recorder that keeps distinct entries and tells `onRefused` of each refusal. */
export function createEgressRecorder(
  onRefused: ((refusal: EgressRefusal) => void) | undefined,
): EgressRecorder {
  const refused: EgressRefusal[] = [];
  const reached: EgressConnection[] = [];
  const seen = new Set<string>();
  const add = <T>(list: T[], key: string, entry: T): boolean => {
    if (seen.has(key) || list.length >= MAX_ENTRIES) return false;
    seen.add(key);
    list.push(entry);
    return true;
  };
  return {
    report: { refused, reached },
    refuse(refusal) {
      const key = JSON.stringify(["refused", refusal.host, refusal.port, refusal.reason]);
      if (!add(refused, key, refusal)) return;
      try {
        onRefused?.(refusal);
      } catch {
        // The caller's listener failing must not take the proxy with it.
      }
    },
    reach(connection) {
      add(reached, JSON.stringify(["reached", connection.host, connection.port]), connection);
    },
  };
}
