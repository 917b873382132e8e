import {
  createPathGuard,
  createSecretExposure,
  type PathGuard,
  type SecretExposure,
} from "@xzatoma/safety";

/** What every built-in tool needs to know about the workspace it works in. */
export interface WorkspaceContext {
  /** The real absolute path of the workspace root. */
  readonly root: string;
  /** Resolves and checks every path argument against the root. */
  readonly pathGuard: PathGuard;
  /**
   * Whether secrets may have reached the model in this session: reading tools record it,
   * network tools consult it (a request to a host the user has not allowed then needs a
   * person's yes). Share it with anything else that reads or sends for the same session.
   */
  readonly exposure: SecretExposure;
}

/** Options of {@link createWorkspaceContext}. */
export interface WorkspaceContextOptions {
  /** The workspace root; it must exist. */
  readonly root: string;
  /**
   * Paths that stay unwritable even inside the root, besides the built-in ones (git hooks
   * and config, shell startup files): the agent's own config, audit log and history DB.
   */
  readonly protectedPaths?: readonly string[];
  /** The session's secret-exposure tracker; a new one by default. */
  readonly exposure?: SecretExposure;
}

/**
 * Creates the context the tool factories take. Build one per workspace; two agents with
 * two workspaces in one process each get their own.
 */
export function createWorkspaceContext(options: WorkspaceContextOptions): WorkspaceContext {
  const pathGuard = createPathGuard({
    root: options.root,
    ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}),
  });
  return {
    root: pathGuard.root,
    pathGuard,
    exposure: options.exposure ?? createSecretExposure(),
  };
}
