import { describeError } from "@xzatoma/core";
import type { McpSecretStore } from "@xzatoma/mcp";
import type { CredentialStore } from "@xzatoma/providers";

/**
 * MCP sign-ins in the OS keyring (through the providers' credential store, account
 * `mcp-<server>`), and in memory for this process as well: without a reachable keyring a
 * sign-in still works for the session, with one warning that it will not be kept.
 */
export function createMcpSecretStore(
  credentials: CredentialStore,
  warn: (message: string) => void,
): McpSecretStore {
  const memory = new Map<string, string>();
  let warned = false;
  return {
    async get(key) {
      return memory.get(key) ?? (await credentials.get(key).catch(() => undefined));
    },
    async set(key, value) {
      memory.set(key, value);
      try {
        await credentials.set(key, value);
      } catch (error) {
        if (!warned) {
          warned = true;
          warn(`An MCP sign-in is kept for this session only: ${describeError(error)}`);
        }
      }
    },
    async delete(key) {
      memory.delete(key);
      await credentials.delete(key).catch(() => false);
    },
  };
}
