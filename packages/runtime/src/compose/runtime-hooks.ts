import { mkdirSync } from "node:fs";
import type { RuntimeConfig } from "../config/config-values.js";
import { NO_HOOKS } from "../hooks/hooks-config.js";
import { createSessionHooks, type SessionHooks } from "../hooks/session-hooks.js";
import type { RuntimeIO } from "../runtime-io.js";
import type { SessionModes } from "../session-modes.js";

/**
 * The session hooks of a runtime (`hooks` in the configuration). Hooks run in the data
 * directory, made here when any hook is configured: the workspace's files are the model's to
 * write, so a hook started there would run what the model wrote.
 */
export function buildRuntimeHooks(
  config: RuntimeConfig,
  io: RuntimeIO,
  context: {
    readonly env: NodeJS.ProcessEnv;
    readonly workspace: string;
    readonly modes: SessionModes;
    /** The stored conversation's id, once there is one. */
    readonly sessionId: () => string | undefined;
  },
): SessionHooks {
  const hooks = config.hooks ?? NO_HOOKS;
  const dataDir = config.persistence.data_dir;
  const sessionHooks = createSessionHooks({
    hooks,
    cwd: dataDir,
    workspace: context.workspace,
    env: context.env,
    sessionId: context.sessionId,
    permissionMode: () => context.modes.approvalPolicy,
    warn: (message) => io.warn(message),
  });
  if (Object.values(hooks).some((entries) => entries.length > 0)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  }
  return sessionHooks;
}
