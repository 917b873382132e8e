// A streamable HTTP MCP server behind OAuth on 127.0.0.1, for tests: the SDK's own
// authorization-server router with its demo in-memory provider (dynamic client registration,
// PKCE, an authorization endpoint that approves at once by redirecting to the client's
// callback with a code) and its bearer-token middleware in front of the fixture server.
import { createRequire } from "node:module";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DemoInMemoryAuthProvider } from "@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from "@modelcontextprotocol/sdk/server/auth/router.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createFixtureServer } from "./fixture-server.js";

type Request = IncomingMessage & { body?: unknown };
type Response = ServerResponse & { status(code: number): { end(): void } };
type Handler = (request: Request, response: Response, next: () => void) => void;
interface ExpressApp {
  use(...handlers: unknown[]): void;
  post(path: string, ...handlers: unknown[]): void;
  listen(port: number, host: string): Server;
}

// express is the SDK's own dependency (its auth router is an express router).
const express = createRequire(
  createRequire(import.meta.url).resolve("@modelcontextprotocol/sdk/server/auth/router.js"),
)("express") as { (): ExpressApp; json(): Handler };

/** A running OAuth-protected server: its MCP endpoint and how to stop it. */
export interface FixtureOAuthServer {
  readonly url: string;
  /** Authorization requests received (each one a sign-in). */
  readonly authorizations: number;
  /** MCP requests that carried a valid token. */
  readonly authorizedRequests: number;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 at a free port; the MCP endpoint is `/mcp`. */
export async function startFixtureOAuthServer(): Promise<FixtureOAuthServer> {
  const app = express();
  const provider = new DemoInMemoryAuthProvider();
  let authorizations = 0;
  let authorizedRequests = 0;
  const http = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => http.once("listening", () => resolve()));
  const base = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/`);
  const mcpUrl = new URL("/mcp", base);
  app.use("/authorize", ((_request, _response, next) => {
    authorizations++;
    next();
  }) satisfies Handler);
  app.use(mcpAuthRouter({ provider, issuerUrl: base, resourceServerUrl: mcpUrl }));
  app.post(
    "/mcp",
    express.json(),
    requireBearerAuth({
      verifier: provider,
      resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
    }),
    ((request, response) => {
      authorizedRequests++;
      const server = createFixtureServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on("close", () => {
        void transport.close();
        void server.close();
      });
      server
        .connect(transport)
        .then(() => transport.handleRequest(request, response, request.body))
        .catch(() => response.status(500).end());
    }) satisfies Handler,
  );
  return {
    url: mcpUrl.href,
    get authorizations() {
      return authorizations;
    },
    get authorizedRequests() {
      return authorizedRequests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
