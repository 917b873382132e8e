// The egress proxy's work on one connection from inside the sandbox: read the request,
// ask the caller's allowHost, resolve the name on the host and check every address with
// the URL guard's policy, connect to a checked address (never resolving again), then
// relay bytes both ways. A refusal answers 403 with the reason and is recorded.
import net from "node:net";
import type { Duplex } from "node:stream";
import { resolveAllowedAddresses, type ResolvedAddress } from "../../url-guard/guarded-lookup.js";
import type { Allowance, LookupFunction } from "../../url-guard/index.js";
import { UrlBlockedError } from "../../url-guard/url-blocked-error.js";
import type { EgressRecorder } from "./egress-report.js";
import {
  MAX_REQUEST_HEAD_BYTES,
  parseProxyRequest,
  type ProxyRequest,
  type ProxyTarget,
} from "./proxy-request.js";

/** What the proxy admits; see `SandboxEgress`. */
export interface EgressPolicy {
  allowHost(host: string, port: number): boolean;
  readonly addresses: Allowance;
  readonly lookup: LookupFunction;
}

/** How long one connection attempt to an origin may take before the next address is tried. */
const CONNECT_TIMEOUT_MS = 30_000;

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad Request",
  403: "Forbidden",
  405: "Method Not Allowed",
  431: "Request Header Fields Too Large",
  502: "Bad Gateway",
};

function describe(target: ProxyTarget): string {
  return `${target.host.includes(":") ? `[${target.host}]` : target.host}:${target.port}`;
}

/** Answers the client and stops reading what else it sends. */
function answer(stream: Duplex, status: number, text: string): void {
  const body = `XZatoma's sandbox: ${text}\n`;
  stream.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Error"}\r\n` +
      "Content-Type: text/plain; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "Connection: close\r\n\r\n" +
      body,
  );
  stream.resume();
}

type Head = { readonly head: string; readonly rest: Buffer } | "too-large" | "closed";

/** Reads up to the blank line that ends the request head, then pauses the stream. */
function readHead(stream: Duplex): Promise<Head> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const finish = (result: Head) => {
      stream.off("data", onData);
      stream.off("end", onClosed);
      stream.off("close", onClosed);
      stream.off("error", onClosed);
      stream.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf("\r\n\r\n");
      if (end >= 0 && end <= MAX_REQUEST_HEAD_BYTES) {
        finish({
          head: buffered.subarray(0, end).toString("latin1"),
          rest: buffered.subarray(end + 4),
        });
      } else if (buffered.length > MAX_REQUEST_HEAD_BYTES + 4) {
        finish("too-large");
      }
    };
    const onClosed = () => finish("closed");
    stream.on("data", onData);
    stream.once("end", onClosed);
    stream.once("close", onClosed);
    stream.once("error", onClosed);
  });
}

/** Connects to the first address that answers; every one was checked before. */
async function connectTo(
  addresses: readonly ResolvedAddress[],
  port: number,
  client: Duplex,
): Promise<net.Socket | Error> {
  let last = new Error("no address");
  for (const { address, family } of addresses) {
    if (client.destroyed) return new Error("the client went away");
    const result = await new Promise<net.Socket | Error>((resolve) => {
      const socket = net.connect({ host: address, port, family, allowHalfOpen: true });
      const fail = (error: Error) => {
        socket.destroy();
        resolve(error);
      };
      socket.setTimeout(CONNECT_TIMEOUT_MS, () => fail(new Error("the connection timed out")));
      socket.once("error", fail);
      socket.once("connect", () => {
        socket.setTimeout(0);
        socket.off("error", fail);
        resolve(socket);
      });
    });
    if (!(result instanceof Error)) return result;
    last = result;
  }
  return last;
}

function relay(client: Duplex, origin: net.Socket): void {
  const teardown = () => {
    client.destroy();
    origin.destroy();
  };
  client.on("error", teardown);
  origin.on("error", teardown);
  client.on("close", () => origin.destroy());
  origin.on("close", (hadError) => {
    if (hadError) client.destroy();
  });
  client.pipe(origin);
  origin.pipe(client);
}

async function admit(
  request: ProxyRequest,
  policy: EgressPolicy,
  recorder: EgressRecorder,
  client: Duplex,
): Promise<readonly ResolvedAddress[] | undefined> {
  const target = { host: request.host, port: request.port };
  let allowed = false;
  try {
    allowed = policy.allowHost(request.host, request.port) === true;
  } catch {
    allowed = false;
  }
  if (!allowed) {
    const reason = "it is not among the hosts allowed for this command";
    recorder.refuse({ ...target, reason });
    answer(client, 403, `refused ${describe(target)}: ${reason}`);
    return undefined;
  }
  try {
    return await resolveAllowedAddresses(
      request.host,
      request.port,
      policy.addresses,
      policy.lookup,
    );
  } catch (error) {
    if (error instanceof UrlBlockedError) {
      recorder.refuse({ ...target, reason: error.reason });
      answer(client, 403, `refused ${describe(target)}: ${error.reason}`);
    } else {
      const reason = error instanceof Error ? error.message : String(error);
      answer(client, 502, `could not resolve ${request.host}: ${reason}`);
    }
    return undefined;
  }
}

/**
 * Serves one connection from inside the sandbox: one CONNECT tunnel or one plain-HTTP
 * request (with what follows it on the same connection) to a host the policy admits.
 */
export async function serveEgressConnection(
  client: Duplex,
  policy: EgressPolicy,
  recorder: EgressRecorder,
): Promise<void> {
  client.on("error", () => client.destroy());
  const head = await readHead(client);
  if (head === "closed") {
    client.destroy();
    return;
  }
  if (head === "too-large") {
    answer(client, 431, `the request head is larger than ${MAX_REQUEST_HEAD_BYTES} bytes`);
    return;
  }
  const request = parseProxyRequest(head.head);
  if (request.kind === "malformed") {
    answer(client, request.status, request.reason);
    return;
  }
  const addresses = await admit(request, policy, recorder, client);
  if (addresses === undefined) return;
  const origin = await connectTo(addresses, request.port, client);
  if (origin instanceof Error) {
    answer(client, 502, `could not connect to ${describe(request)}: ${origin.message}`);
    return;
  }
  if (client.destroyed) {
    origin.destroy();
    return;
  }
  recorder.reach({ host: request.host, port: request.port });
  if (request.kind === "connect") {
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
  } else {
    origin.write(request.originHead, "latin1");
  }
  if (head.rest.length > 0) origin.write(head.rest);
  relay(client, origin);
}
