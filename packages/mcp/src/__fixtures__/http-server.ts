// A streamable HTTP MCP server on 127.0.0.1 for tests: the fixture server, stateless (a fresh
// server and transport per request, as the SDK's stateless example does).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createFixtureServer } from "./fixture-server.js";

/** A running HTTP server: its MCP endpoint and how to stop it. */
export interface FixtureHttpServer {
  readonly url: string;
  /** The `Authorization` header of each request received, in order. */
  readonly authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/** Starts the fixture server over streamable HTTP on 127.0.0.1 at a free port, path `/mcp`. */
export async function startFixtureHttpServer(): Promise<FixtureHttpServer> {
  const authorizations: (string | undefined)[] = [];
  const http: Server = createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    if (request.url !== "/mcp") {
      response.writeHead(404).end();
      return;
    }
    const server = createFixtureServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(request, response))
      .catch(() => response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
