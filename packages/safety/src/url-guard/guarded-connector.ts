/**
 * The undici connector of the guarded fetch: every connection, first request or redirect
 * hop, resolves and checks its target here, at connect time.
 */
import { isIP } from "node:net";
import type { buildConnector } from "undici";
import type { Allowance } from "./allowance.js";
import {
  createConnectLookup,
  resolveAllowedAddresses,
  type LookupFunction,
} from "./guarded-lookup.js";

/** Options of {@link createGuardedConnector}. */
export interface GuardedConnectorOptions {
  readonly allowance: Allowance;
  readonly lookup: LookupFunction;
  /** Time to establish a connection, in milliseconds. */
  readonly connectTimeoutMs: number;
}

/**
 * Builds an undici `connect` function. Host names resolve through a lookup that refuses
 * every denied address (net never resolves on its own); IP-literal hosts, which net
 * connects to without a lookup, are checked before the connector runs.
 */
export function createGuardedConnector(
  options: GuardedConnectorOptions,
  build: typeof buildConnector,
): buildConnector.connector {
  // The lookup must know the port (an allowed `host:port` is not an allowed host), and
  // net's lookup does not receive it: one connector per port, kept for TLS session reuse.
  const connectors = new Map<number, buildConnector.connector>();
  const connectorFor = (port: number): buildConnector.connector => {
    let connector = connectors.get(port);
    if (connector === undefined) {
      connector = build({
        lookup: createConnectLookup(port, options.allowance, options.lookup),
        timeout: options.connectTimeoutMs,
      });
      connectors.set(port, connector);
    }
    return connector;
  };
  return (connectOptions, callback) => {
    const port = Number(connectOptions.port) || (connectOptions.protocol === "https:" ? 443 : 80);
    const connector = connectorFor(port);
    if (isIP(connectOptions.hostname) === 0) {
      connector(connectOptions, callback);
      return;
    }
    resolveAllowedAddresses(connectOptions.hostname, port, options.allowance, options.lookup).then(
      () => {
        connector(connectOptions, callback);
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), null);
      },
    );
  };
}
