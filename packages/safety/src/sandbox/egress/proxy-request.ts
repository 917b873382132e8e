// Reads the one request an egress connection starts with: `CONNECT host:port` (a tunnel,
// what HTTPS clients send) or a plain-HTTP request in absolute form (`GET http://host/…`).
// Everything is checked strictly; what does not parse is refused, never guessed at.
import { normaliseHost } from "../../url-guard/allowance.js";

/** Largest request head (request line and headers) the proxy reads. */
export const MAX_REQUEST_HEAD_BYTES = 32 * 1024;

/** Where a request wants to go: the host as a URL's hostname gives it, and the port. */
export interface ProxyTarget {
  /** Lower case, IDNA (punycode), IPv4 in dotted form, IPv6 without brackets. */
  readonly host: string;
  readonly port: number;
}

/** A request the proxy understood. */
export type ProxyRequest =
  | (ProxyTarget & { readonly kind: "connect" })
  | (ProxyTarget & {
      readonly kind: "forward";
      /** The head to send to the origin: origin-form target, `Host` set, `Connection: close`. */
      readonly originHead: string;
    });

/** A request the proxy refuses to read, with the status to answer. */
export interface MalformedRequest {
  readonly kind: "malformed";
  readonly status: 400 | 405;
  readonly reason: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const VERSION = /^HTTP\/1\.[01]$/;
const AUTHORITY = /^(\[[0-9A-Fa-f:.]+\]|[^\s:/?#@[\]\\]+):(\d{1,5})$/;
/** Headers about the connection to the proxy, which the origin must not see. */
const HOP_BY_HOP = new Set([
  "connection",
  "proxy-connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "upgrade",
]);

function malformed(reason: string, status: 400 | 405 = 400): MalformedRequest {
  return { kind: "malformed", status, reason };
}

/** The host part as the WHATWG URL parser normalises it, or undefined when it is not a host. */
function hostOf(text: string): string | undefined {
  try {
    const url = new URL(`http://${text}/`);
    return url.hostname === "" ? undefined : normaliseHost(url.hostname);
  } catch {
    return undefined;
  }
}

function validPort(text: string): number | undefined {
  const port = Number(text);
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? port : undefined;
}

function authorityOf(target: ProxyTarget): string {
  const host = target.host.includes(":") ? `[${target.host}]` : target.host;
  return target.port === 80 ? host : `${host}:${target.port}`;
}

/**
 * Parses a request head (up to and without the blank line that ends it, in latin1).
 * Returns the target and, for plain HTTP, the head to send to the origin.
 */
export function parseProxyRequest(head: string): ProxyRequest | MalformedRequest {
  const lines = head.split("\r\n");
  const [method = "", target = "", version = "", ...extra] = (lines[0] ?? "").split(" ");
  if (!TOKEN.test(method) || target === "" || !VERSION.test(version) || extra.length > 0) {
    return malformed("the request line is not 'METHOD target HTTP/1.x'");
  }
  const headers: [string, string][] = [];
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon) : "";
    if (!TOKEN.test(name) || /[\0\r\n]/.test(line)) {
      return malformed("a header line is malformed (or folded)");
    }
    headers.push([name, line.slice(colon + 1).trim()]);
  }
  if (method === "CONNECT") {
    const match = AUTHORITY.exec(target);
    const host = match?.[1] === undefined ? undefined : hostOf(match[1]);
    const port = match?.[2] === undefined ? undefined : validPort(match[2]);
    if (host === undefined || port === undefined) {
      return malformed("CONNECT needs a target of the form host:port");
    }
    return { kind: "connect", host, port };
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return malformed("a request through the proxy needs an absolute http:// URL");
  }
  if (url.protocol !== "http:") {
    return malformed(
      `the proxy forwards plain http:// requests only; ${url.protocol}// goes through CONNECT`,
      405,
    );
  }
  if (url.username !== "" || url.password !== "") {
    return malformed("the request URL carries credentials");
  }
  const host = normaliseHost(url.hostname);
  const port = url.port === "" ? 80 : Number(url.port);
  if (host === "" || validPort(String(port)) === undefined) {
    return malformed("the request URL has no usable host and port");
  }
  const named = new Set(
    headers
      .filter(([name]) => name.toLowerCase() === "connection")
      .flatMap(([, value]) => value.split(",").map((token) => token.trim().toLowerCase())),
  );
  const kept = headers.filter(([name]) => {
    const lower = name.toLowerCase();
    return lower !== "host" && !HOP_BY_HOP.has(lower) && !named.has(lower);
  });
  // The Host header is the target's own, so the origin serves what was checked. The
  // origin closes after its answer, so a client's next request comes on a new connection
  // and is checked again; whatever else it sends on this one reaches this origin only.
  const originHead = [
    `${method} ${url.pathname}${url.search} ${version}`,
    `Host: ${authorityOf({ host, port })}`,
    ...kept.map(([name, value]) => `${name}: ${value}`),
    "Connection: close",
    "",
    "",
  ].join("\r\n");
  return { kind: "forward", host, port, originHead };
}
