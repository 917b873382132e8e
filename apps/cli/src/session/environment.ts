import { homedir } from "node:os";
import path from "node:path";
import { loadToolPackage, type Tool } from "@xzatoma/core";
import {
  createAuditLog,
  createCommandPolicy,
  createGuardedFetch,
  createSandbox,
  DEFAULT_ALLOWLIST,
  type AuditLog,
  type GuardedFetch,
  type Sandbox,
} from "@xzatoma/safety";
import {
  createFetchTool,
  createFileTools,
  createListDirectoryTool,
  createPlanTool,
  createReadFileTool,
  createTerminalTool,
  createWorkspaceContext,
  type CommandJudge,
  type WorkspaceContext,
} from "@xzatoma/tools";
import type { RuntimeConfig } from "../config/index.js";

/** Everything a session's tools need, built once per workspace. */
export interface ToolEnvironment {
  readonly workspace: WorkspaceContext;
  readonly tools: readonly Tool[];
  readonly auditLog: AuditLog;
  readonly sandbox: Sandbox;
  readonly fetcher: GuardedFetch;
  close(): Promise<void>;
}

/** Options of {@link createToolEnvironment}. */
export interface ToolEnvironmentOptions {
  readonly config: RuntimeConfig;
  readonly workspaceRoot: string;
  /** The config file in use, protected from tools. */
  readonly configPath?: string;
  /** Prints a one-time notice (the sandbox warning). */
  readonly warn: (message: string) => void;
}

/** Adds the user's `custom_denylist` patterns to a command judge: a match blocks. */
function withCustomDenylist(judge: CommandJudge, patterns: readonly string[]): CommandJudge {
  if (patterns.length === 0) return judge;
  return {
    async check(command, checkOptions) {
      const hit = patterns.find((pattern) => command.includes(pattern));
      if (hit !== undefined)
        return { verdict: "block", reason: `'${hit}' is on the configured denylist.` };
      return judge.check(command, checkOptions);
    },
  };
}

/**
 * Builds the workspace context, guards, sandbox, audit log and every tool (built-in and
 * from tool packages). The chat mode later decides which of them are registered.
 */
export async function createToolEnvironment(
  options: ToolEnvironmentOptions,
): Promise<ToolEnvironment> {
  const { config } = options;
  const auditLog = createAuditLog({ path: path.join(config.persistence.data_dir, "audit.log") });
  const protectedPaths = [
    auditLog.path,
    config.persistence.db_path,
    `${config.persistence.db_path}-wal`,
    `${config.persistence.db_path}-shm`,
    path.join(homedir(), ".config", "xzatoma"),
    ...(options.configPath ? [options.configPath] : []),
  ];
  const workspace = createWorkspaceContext({ root: options.workspaceRoot, protectedPaths });
  const sandbox = createSandbox({ disabled: !config.agent.terminal.sandbox, env: process.env });
  const warnedAtStart = sandbox.warning !== undefined;
  if (sandbox.warning) options.warn(sandbox.warning);
  // The parser (a WebAssembly grammar) loads on the first command, not at start-up: most
  // sessions start with a model request, and planning mode never runs commands. A load
  // that fails makes every judgement throw, which the registry treats as a block.
  let loading: ReturnType<typeof createCommandPolicy> | undefined;
  const policy: CommandJudge = {
    async check(command, checkOptions) {
      loading ??= createCommandPolicy({
        pathGuard: workspace.pathGuard,
        ...(config.agent.terminal.allowlist.length > 0
          ? { allowlist: [...DEFAULT_ALLOWLIST, ...config.agent.terminal.allowlist] }
          : {}),
      });
      return (await loading).check(command, checkOptions);
    },
  };
  const fetcher = createGuardedFetch({
    maxBytes: config.agent.fetch.max_response_size,
    timeoutMs: config.agent.fetch.timeout_seconds * 1000,
    allowedPorts: config.agent.fetch.allowed_ports,
    allowHosts: config.agent.fetch.allowed_hosts,
  });
  const tools: Tool[] = [
    createReadFileTool(workspace, { maxFileBytes: config.agent.tools.max_file_read_size }),
    createListDirectoryTool(workspace),
    ...createFileTools(workspace, { maxFileBytes: config.agent.tools.max_file_read_size }),
    createPlanTool(workspace),
    createFetchTool(workspace, { fetcher }),
    createTerminalTool(workspace, {
      commandPolicy: withCustomDenylist(policy, config.agent.terminal.custom_denylist),
      sandbox,
      auditLog,
      timeoutSeconds: config.agent.terminal.timeout_seconds,
      maxStdoutBytes: config.agent.terminal.max_stdout_bytes,
      maxStderrBytes: config.agent.terminal.max_stderr_bytes,
      network: config.agent.terminal.network,
      allowUnattendedGitWrites: config.agent.terminal.allow_unattended_git_writes,
      // A sandbox whose start-up check fails at the first command says so then.
      onSandboxWarning: (warning) => {
        if (!warnedAtStart) options.warn(warning);
      },
    }),
  ];
  for (const entry of config.agent.tools.packages) {
    tools.push(
      ...(await loadToolPackage(entry.name, {
        context: { root: workspace.root, options: entry.options ?? {} },
      })),
    );
  }
  return { workspace, tools, auditLog, sandbox, fetcher, close: () => fetcher.close() };
}
