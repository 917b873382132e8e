import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { WatcherStatus } from "@xzatoma/watcher";

/** A running health endpoint. */
export interface HealthServer {
  /** `http://HOST:PORT`. */
  readonly url: string;
  close(): Promise<void>;
}

/** What {@link serveHealth} needs. */
export interface HealthServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly status: () => WatcherStatus;
  /** Answers `/metrics` (Prometheus text) when metrics are collected. */
  readonly metrics?: (request: IncomingMessage, response: ServerResponse) => void;
}

const json = (response: ServerResponse, code: number, body: unknown) =>
  response
    .writeHead(code, { "content-type": "application/json", "cache-control": "no-store" })
    .end(`${JSON.stringify(body)}\n`);

/**
 * Serves `/healthz` (200 while the process can do its work, 503 after the consumer failed),
 * `/readyz` (200 while consuming, 503 while starting or stopping) and `/metrics`, for
 * systemd watchdogs, Kubernetes probes and Prometheus.
 */
export async function serveHealth(options: HealthServerOptions): Promise<HealthServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    if (request.method !== "GET") return json(response, 405, { error: "GET only" });
    const status = options.status();
    if (path === "/healthz") return json(response, status.live ? 200 : 503, status);
    if (path === "/readyz") return json(response, status.ready ? 200 : 503, status);
    if (path === "/metrics" && options.metrics) return options.metrics(request, response);
    return json(response, 404, { error: "Not found: try /healthz, /readyz or /metrics" });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          `Cannot serve the health endpoint on ${options.host}:${options.port}: ${error.code === "EADDRINUSE" ? "the port is in use" : error.message} (watcher.health.port, watcher.health.host).`,
        ),
      ),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
