import { realpathSync } from "node:fs";
import path from "node:path";
import type { History } from "@xzatoma/persistence";
import { createAuditLog, type AuditLog } from "@xzatoma/safety";
import { createWorkspaceContext, type WorkspaceContext } from "@xzatoma/tools";
import type { RuntimeConfig } from "../config/config-values.js";
import { createTurnCheckpoints, type TurnCheckpoints } from "../turn-checkpoints.js";
import type { AgentRuntimeOptions } from "./runtime-options.js";

/** The workspace a runtime's tools work in, with the audit log and the turn checkpoints. */
export interface RuntimeWorkspace {
  readonly auditLog: AuditLog;
  /** What each turn's changes replace, for `xzatoma rewind` (recorded once history is on). */
  readonly checkpoints: TurnCheckpoints;
  readonly workspace: WorkspaceContext;
}

/**
 * Builds the workspace guard of a runtime: the workspace root, with XZatoma's own files (the
 * audit log, the history database and its journal, the data directory, the configuration
 * file) protected from every tool. `history` gives the history database once it is open; the
 * checkpoints ask it only when their size cap is passed.
 */
export function buildRuntimeWorkspace(
  config: RuntimeConfig,
  options: Pick<
    AgentRuntimeOptions,
    "workspace" | "modes" | "configPath" | "fileAccess" | "checkpointUnchanged"
  >,
  history: () => History | undefined,
): RuntimeWorkspace {
  const dataDir = config.persistence.data_dir;
  const dbPath = config.persistence.db_path;
  const auditLog = createAuditLog({ path: path.join(dataDir, "audit.log") });
  const checkpoints = createTurnCheckpoints(dataDir, {
    exists: () => {
      const store = history();
      return store ? (id) => store.getConversation(id) !== undefined : undefined;
    },
    ...(options.checkpointUnchanged === false ? { indexUnchanged: false } : {}),
  });
  const workspace = createWorkspaceContext({
    changes: checkpoints.changes,
    root: options.workspace,
    // Nobody to ask: a workspace that is or holds $HOME is refused.
    unattended: options.modes.approvalPolicy === "never",
    protectedPaths: [
      auditLog.path,
      dbPath,
      `${dbPath}-wal`,
      `${dbPath}-shm`,
      dataDir,
      ...(options.configPath ? configProtection(options.configPath, options.workspace) : []),
    ],
    ...(options.fileAccess ? { files: options.fileAccess } : {}),
  });
  return { auditLog, checkpoints, workspace };
}

/**
 * What of the configuration file no tool may change: the file, and its directory (where a
 * sibling could be read as configuration) unless that directory is the workspace or holds
 * it. A project that keeps its `xzatoma.yaml` at its root stays writable; the file does not.
 *
 * @example
 * configProtection("/home/ada/.config/xzatoma/config.yaml", "/home/ada/project");
 * // ["/home/ada/.config/xzatoma/config.yaml", "/home/ada/.config/xzatoma"]
 */
export function configProtection(configPath: string, workspace: string): string[] {
  const file = realOrResolved(configPath);
  const directory = path.dirname(file);
  const root = realOrResolved(workspace);
  const relative = path.relative(directory, root);
  const holdsWorkspace =
    relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
  return holdsWorkspace ? [file] : [file, directory];
}

/** The real path of `target`; for one that does not exist yet, of its deepest existing ancestor. */
function realOrResolved(target: string): string {
  const missing: string[] = [];
  let current = path.resolve(target);
  for (;;) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(target);
      missing.push(path.basename(current));
      current = parent;
    }
  }
}
