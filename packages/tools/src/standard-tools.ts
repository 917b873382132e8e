import type { Tool } from "@xzatoma/core";
import {
  createCommandPolicy,
  createGuardedFetch,
  DEFAULT_ALLOWLIST,
  type AuditLog,
  type GuardedFetch,
  type Sandbox,
} from "@xzatoma/safety";
import { createFetchTool } from "./fetch/index.js";
import { createFileTools } from "./file-tools.js";
import { createListDirectoryTool } from "./list-directory.js";
import { createPlanTool } from "./plan-tool.js";
import { createReadFileTool } from "./read-file.js";
import { createTerminalTool, type CommandJudge } from "./terminal.js";
import type { FetchConfig, TerminalConfig, ToolsConfig } from "./tools-config.js";
import type { WorkspaceContext } from "./workspace-context.js";

/** The configuration slices {@link createStandardTools} reads. */
export interface StandardToolsConfig {
  readonly tools: ToolsConfig;
  readonly terminal: TerminalConfig;
  readonly fetch: FetchConfig;
}

/** What the standard tools share with their owner. */
export interface StandardToolsDependencies {
  readonly sandbox: Sandbox;
  readonly auditLog?: AuditLog;
  /** A notice for the person (a sandbox that fails its start-up check at the first command). */
  readonly warn?: (message: string) => void;
  /** The sandbox's warning was already shown at start; do not repeat it. */
  readonly warnedAtStart?: boolean;
}

/** Every built-in tool of one workspace, and the guarded fetcher `@url:` mentions share. */
export interface StandardTools {
  readonly tools: readonly Tool[];
  readonly fetcher: GuardedFetch;
  close(): Promise<void>;
}

/**
 * The 13 built-in tools for one workspace, configured from the `agent.tools`,
 * `agent.terminal` and `agent.fetch` slices: read, list, the file tools, plan, fetch and
 * the terminal with its command policy (the user's allowlist and denylist included). The
 * chat mode later decides which are registered.
 *
 * The command policy's parser (a WebAssembly grammar) loads at the first command, not at
 * start: most sessions start with a model request, and planning mode never runs commands.
 * A load that fails makes every judgement throw, which the registry treats as a block.
 */
export function createStandardTools(
  workspace: WorkspaceContext,
  config: StandardToolsConfig,
  dependencies: StandardToolsDependencies,
): StandardTools {
  const { terminal } = config;
  let loading: ReturnType<typeof createCommandPolicy> | undefined;
  const commandPolicy: CommandJudge = {
    async check(command, options) {
      loading ??= createCommandPolicy({
        pathGuard: workspace.pathGuard,
        allowlist: [...DEFAULT_ALLOWLIST, ...terminal.allowlist],
        denylist: terminal.custom_denylist,
      });
      return (await loading).check(command, options);
    },
  };
  const fetcher = createGuardedFetch({
    maxBytes: config.fetch.max_response_size,
    timeoutMs: config.fetch.timeout_seconds * 1000,
    allowedPorts: config.fetch.allowed_ports,
    allowHosts: config.fetch.allowed_hosts,
  });
  const maxFileBytes = config.tools.max_file_read_size;
  const tools: Tool[] = [
    createReadFileTool(workspace, { maxFileBytes }),
    createListDirectoryTool(workspace),
    ...createFileTools(workspace, { maxFileBytes }),
    createPlanTool(workspace),
    createFetchTool(workspace, { fetcher }),
    createTerminalTool(workspace, {
      commandPolicy,
      sandbox: dependencies.sandbox,
      ...(dependencies.auditLog ? { auditLog: dependencies.auditLog } : {}),
      timeoutSeconds: terminal.timeout_seconds,
      maxStdoutBytes: terminal.max_stdout_bytes,
      maxStderrBytes: terminal.max_stderr_bytes,
      network: terminal.network,
      egressHosts: terminal.egress_hosts,
      egressUnattended: terminal.egress_unattended,
      allowUnattendedGitWrites: terminal.allow_unattended_git_writes,
      onSandboxWarning: (warning) => {
        if (!dependencies.warnedAtStart) dependencies.warn?.(warning);
      },
    }),
  ];
  return { tools, fetcher, close: () => fetcher.close() };
}
