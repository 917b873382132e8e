import { statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { AgentLimits, Tool } from "@xzatoma/core";
import {
  createAgentRuntime,
  loadConfig,
  type AgentRuntime,
  type AgentRuntimeOptions,
  type LoadedConfig,
  type RuntimeConfig,
  type RuntimeIO,
  type SessionModes,
} from "@xzatoma/runtime";
import { FLAG_MAPPINGS } from "../config/flag-mapping.js";
import { createMentionLoader } from "../mentions/index.js";
import { UsageError } from "../usage-error.js";
import { chooseDefaultProvider } from "./default-provider.js";
import { applyMemorySettingsOnFirstAnswer } from "./memory-settings.js";

/** What `run` and `chat` share: configuration, the runtime and the mention loader. */
export interface PreparedSession {
  readonly loaded: LoadedConfig;
  readonly runtime: AgentRuntime;
  readonly mentions: ReturnType<typeof createMentionLoader>;
}

/** Resolves `--workspace` (default: the current directory) or fails naming the flag. */
export function resolveWorkspace(option: string | undefined): string {
  const workspace = path.resolve(option ?? process.cwd());
  let isDirectory = false;
  try {
    isDirectory = statSync(workspace).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory)
    throw new UsageError(`--workspace: '${option ?? workspace}' is not a directory.`);
  return workspace;
}

/** Loads the configuration and builds the runtime through `createAgentRuntime`. */
export async function prepareSession(options: {
  readonly configPath?: string;
  readonly flags: Record<string, unknown>;
  readonly workspace?: string;
  readonly io: RuntimeIO;
  /** The modes to start in, from the configuration and the command's flags. */
  readonly modes: (config: RuntimeConfig) => SessionModes;
  /**
   * Whether an `@url:` mention the URL guard would ask about (an unusual port) counts as
   * confirmed. Mentions come only from the person's own input, so in chat typing one is the
   * confirmation; in restricted autonomous `run` nobody is asked, and such a URL is refused
   * like any other call that needs a yes. Blocked URLs stay blocked either way.
   */
  readonly mentionUrlsConfirmed: boolean;
  readonly history?:
    | false
    | {
        readonly resume?: string | { readonly latest: true };
        readonly title?: (first: string) => string;
      };
  readonly limits?: Partial<AgentLimits>;
  readonly extraTools?: readonly Tool[];
  /** Offer subagents whatever `agent.subagent.enabled` says (chat; `run --subagents`). */
  readonly subagents?: boolean;
  /** OpenTelemetry's tracer and meter, when the environment turned telemetry on. */
  readonly telemetry?: AgentRuntimeOptions["telemetry"];
  /**
   * Nobody chose a provider and Ollama on this machine does not answer: run the embedded
   * model when it is installed, else say how to get a model (see `default-provider.ts`).
   */
  readonly fallBackToLocal?: boolean;
  /**
   * Chooses the conversation to resume once the configuration is known (chat's picker,
   * `--continue`, the question before a conversation moves workspace). When it answers
   * another workspace, the configuration is loaded again for that one.
   */
  readonly chooseResume?: (
    config: RuntimeConfig,
    workspace: string,
  ) => Promise<{ readonly id: string; readonly workspace: string }>;
}): Promise<PreparedSession> {
  const workspaceRoot = resolveWorkspace(options.workspace);
  const loaded = await loadConfig({
    ...(options.configPath ? { configPath: options.configPath } : {}),
    env: process.env,
    flags: options.flags,
    flagMappings: FLAG_MAPPINGS,
    homeDir: homedir(),
    cwd: process.cwd(),
    // The workspace's .xzatoma/config.yaml, under the user's file (what applies untrusted is
    // limited: see readProjectConfig).
    projectDir: workspaceRoot,
  });
  // The warnings of the configuration that applies: a choice below may load it again.
  if (options.fallBackToLocal) {
    const choice = await chooseDefaultProvider(loaded, process.env);
    if (choice.kind !== "keep") options.io.warn(choice.notice);
    if (choice.kind === "local") {
      const { fallBackToLocal, ...rest } = options;
      void fallBackToLocal;
      return prepareSession({ ...rest, flags: { ...options.flags, provider: "local" } });
    }
  }
  const { config } = loaded;
  if (options.history && options.history.resume !== undefined && !config.persistence.enabled)
    throw new UsageError("--resume: history is turned off (persistence.enabled: false).");
  if (options.chooseResume) {
    const chosen = await options.chooseResume(config, workspaceRoot);
    // Once: the configuration is loaded again for the chosen workspace, nothing asked again.
    const { chooseResume, ...rest } = options;
    void chooseResume;
    return prepareSession({
      ...rest,
      workspace: chosen.workspace,
      history: { ...(options.history || {}), resume: chosen.id },
    });
  }
  for (const warning of loaded.warnings ?? []) options.io.warn(warning);
  const runtime = await createAgentRuntime(config, options.io, {
    workspace: workspaceRoot,
    modes: options.modes(config),
    // The file read, or the one a later start would read: no tool may create it either.
    configPath: loaded.configPath,
    ...(options.history !== undefined ? { history: options.history } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.extraTools ? { extraTools: options.extraTools } : {}),
    ...(options.subagents ? { subagents: true } : {}),
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
  });
  applyMemorySettingsOnFirstAnswer(runtime);
  const mcp = runtime.mcp;
  const mentions = createMentionLoader({
    pathGuard: runtime.workspace.pathGuard,
    confirmed: options.mentionUrlsConfirmed,
    exposure: runtime.workspace.exposure,
    fetchUrl: (url) => runtime.fetchText(url, { confirmed: options.mentionUrlsConfirmed }),
    ...(mcp
      ? { readMcpResource: (server: string, uri: string) => mcp.readResource(server, uri) }
      : {}),
    maxFileBytes: config.agent.mentions.max_file_size,
    urlCacheTtlMs: config.agent.mentions.url_cache_ttl_seconds * 1000,
    maxUrlsPerRequest: config.agent.mentions.max_urls_per_request,
    maxUrlBytes: config.agent.fetch.max_response_size,
  });
  return { loaded, runtime, mentions };
}
