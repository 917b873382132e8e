// The fixture server over stdio: `node stdio-server.ts` (Node runs the TypeScript directly).
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createFixtureServer } from "./fixture-server.ts";

await createFixtureServer().connect(new StdioServerTransport());
