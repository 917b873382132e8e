import { mkdirSync } from "node:fs";
import path from "node:path";

/**
 * The working directory of MCP stdio servers that do not name their own: `<data dir>/mcp`,
 * created private (0700) on first use. Not the workspace: a server's launcher resolves
 * things against its working directory (`python -m module`, npx's local
 * `node_modules/.bin`, a relative script path), the workspace's files are the model's to
 * write, and a server runs as the user, outside the sandbox. The data directory is
 * protected from every tool, so nothing the model writes can end up here.
 */
export function mcpWorkingDirectory(dataDir: string): string {
  const directory = path.join(dataDir, "mcp");
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  return directory;
}
