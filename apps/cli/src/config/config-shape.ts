import type { AgentLimits } from "@xzatoma/core";
import type { ChatMode, ExecutionMode, SafetyMode } from "@xzatoma/safety";
import type { ConfigFileShape, LogLevel, ProviderType } from "./config-schema.js";

/** A tool package to load, with its own options. */
export interface ToolPackageEntry {
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
}

/**
 * The resolved configuration, in camelCase. Every value is present (defaults filled in)
 * except the optional ones marked `?`. Paths are absolute. The YAML names are the
 * snake_case forms (`agent.max_turns` is `agent.maxTurns`).
 */
export interface XzatomaConfig {
  readonly provider: {
    /** Which provider answers. Default `ollama`. */
    readonly type: ProviderType;
    readonly ollama: {
      /** Default `http://localhost:11434`; `host:port` is accepted. */
      readonly host: string;
      /** Default `llama3.2:latest`. */
      readonly model: string;
      /** Default 600. */
      readonly requestTimeoutSeconds: number;
    };
    readonly openai: {
      /** Any OpenAI-compatible server. Default `https://api.openai.com/v1`. */
      readonly baseUrl: string;
      /** Default `gpt-4o-mini`. */
      readonly model: string;
      readonly organizationId?: string;
      /** Default 600. */
      readonly requestTimeoutSeconds: number;
      /** Default true. */
      readonly enableStreaming: boolean;
    };
    readonly copilot: {
      /** Default `gpt-5-mini`. */
      readonly model: string;
      /** OAuth client id for the device login; default: the provider's own. */
      readonly clientId?: string;
      /** Replaces `https://api.githubcopilot.com`. */
      readonly apiBase?: string;
    };
    readonly local: {
      /** A GGUF model file for the in-process provider. */
      readonly modelPath?: string;
    };
  };
  readonly agent: {
    /** Model requests per run, 1-1000. Default 50. */
    readonly maxTurns: number;
    /** Wall-clock seconds per run. Default 300. */
    readonly timeoutSeconds: number;
    /** Tool calls per run. Default 200. */
    readonly maxToolCalls: number;
    /** Tool calls in one model response. Default 16. */
    readonly maxToolCallsPerStep: number;
    /** Responses in a row that only call tools. Default 25. */
    readonly maxConsecutiveToolSteps: number;
    readonly conversation: {
      /** Default 100 000. */
      readonly maxTokens: number;
      /** Turns always kept when pruning. Default 5. */
      readonly minRetainTurns: number;
      /** Prune at this share of `maxTokens`, or `false` for never. Default 0.8. */
      readonly pruneThreshold: number | false;
      /** Warn at this share of `maxTokens`. Default 0.85. */
      readonly warningThreshold: number;
      /** Critical at this share (at least `warningThreshold`). Default 0.95. */
      readonly criticalThreshold: number;
    };
    readonly tools: {
      /** Bytes of one tool result shown to the model. Default 1 MiB. */
      readonly maxOutputSize: number;
      /** Largest file `read_file` reads. Default 10 MiB. */
      readonly maxFileReadSize: number;
      /** Third-party tool packages. Default none. */
      readonly packages: readonly ToolPackageEntry[];
    };
    readonly terminal: {
      /** Default `restricted` (`restricted_autonomous` in the file). */
      readonly defaultMode: ExecutionMode;
      /** Seconds per command. Default 30. */
      readonly timeoutSeconds: number;
      /** Default 10 MiB. */
      readonly maxStdoutBytes: number;
      /** Default 1 MiB. */
      readonly maxStderrBytes: number;
      /** Extra commands allowed without confirmation. Default none. */
      readonly allowlist: readonly string[];
      /** Extra command patterns always refused. Default none. */
      readonly customDenylist: readonly string[];
      /** Run commands in the sandbox where available. Default true. */
      readonly sandbox: boolean;
      /** Network inside the sandbox. Default false. */
      readonly network: boolean;
      /**
       * Let git commands that write `.git` run in full autonomous mode without a person's
       * yes. Default false.
       */
      readonly allowUnattendedGitWrites: boolean;
    };
    readonly fetch: {
      /** Default 60. */
      readonly timeoutSeconds: number;
      /** Default 1 MiB. */
      readonly maxResponseSize: number;
      /** Default 80 and 443. */
      readonly allowedPorts: readonly number[];
      /** Empty (the default) means any public host. */
      readonly allowedHosts: readonly string[];
    };
    readonly mentions: {
      /** Largest file an @mention includes. Default 10 MiB. */
      readonly maxFileSize: number;
      /** Default 86 400 (24 hours). */
      readonly urlCacheTtlSeconds: number;
      /** Default 10. */
      readonly maxUrlsPerRequest: number;
    };
    readonly chat: {
      /** Default `planning`. */
      readonly defaultMode: ChatMode;
      /** Default `safe`. */
      readonly defaultSafety: SafetyMode;
    };
  };
  readonly persistence: {
    /** Save conversations. Default true. */
    readonly enabled: boolean;
    /** Default `~/.xzatoma` (`XZATOMA_HOME`). */
    readonly dataDir: string;
    /** Default `history.db` in `dataDir`. */
    readonly dbPath: string;
  };
  readonly logging: {
    /** Default `info`. */
    readonly level: LogLevel;
    /** Default `text`. */
    readonly format: "text" | "json";
    /** Log file; default: standard error. */
    readonly file?: string;
  };
}

const TO_EXECUTION_MODE = {
  interactive: "interactive",
  restricted_autonomous: "restricted",
  full_autonomous: "full",
} as const satisfies Record<string, ExecutionMode>;

const FROM_EXECUTION_MODE = {
  interactive: "interactive",
  restricted: "restricted_autonomous",
  full: "full_autonomous",
} as const satisfies Record<ExecutionMode, string>;

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** The file shape (after defaults, with `data_dir` and `db_path` filled in) as {@link XzatomaConfig}. */
export function toConfig(
  file: ConfigFileShape,
  paths: { readonly dataDir: string; readonly dbPath: string },
): XzatomaConfig {
  const { provider, agent, persistence, logging } = file;
  const { conversation, tools, terminal, fetch, mentions, chat } = agent;
  return {
    provider: {
      type: provider.type,
      ollama: {
        host: provider.ollama.host,
        model: provider.ollama.model,
        requestTimeoutSeconds: provider.ollama.request_timeout_seconds,
      },
      openai: {
        baseUrl: provider.openai.base_url,
        model: provider.openai.model,
        ...optional("organizationId", provider.openai.organization_id),
        requestTimeoutSeconds: provider.openai.request_timeout_seconds,
        enableStreaming: provider.openai.enable_streaming,
      },
      copilot: {
        model: provider.copilot.model,
        ...optional("clientId", provider.copilot.client_id),
        ...optional("apiBase", provider.copilot.api_base),
      },
      local: { ...optional("modelPath", provider.local.model_path) },
    },
    agent: {
      maxTurns: agent.max_turns,
      timeoutSeconds: agent.timeout_seconds,
      maxToolCalls: agent.max_tool_calls,
      maxToolCallsPerStep: agent.max_tool_calls_per_step,
      maxConsecutiveToolSteps: agent.max_consecutive_tool_steps,
      conversation: {
        maxTokens: conversation.max_tokens,
        minRetainTurns: conversation.min_retain_turns,
        pruneThreshold: conversation.prune_threshold,
        warningThreshold: conversation.warning_threshold,
        criticalThreshold: conversation.critical_threshold,
      },
      tools: {
        maxOutputSize: tools.max_output_size,
        maxFileReadSize: tools.max_file_read_size,
        packages: tools.packages.map((entry) => ({ name: entry.name, options: entry.options })),
      },
      terminal: {
        defaultMode: TO_EXECUTION_MODE[terminal.default_mode],
        timeoutSeconds: terminal.timeout_seconds,
        maxStdoutBytes: terminal.max_stdout_bytes,
        maxStderrBytes: terminal.max_stderr_bytes,
        allowlist: terminal.allowlist,
        customDenylist: terminal.custom_denylist,
        sandbox: terminal.sandbox,
        network: terminal.network,
        allowUnattendedGitWrites: terminal.allow_unattended_git_writes,
      },
      fetch: {
        timeoutSeconds: fetch.timeout_seconds,
        maxResponseSize: fetch.max_response_size,
        allowedPorts: fetch.allowed_ports,
        allowedHosts: fetch.allowed_hosts,
      },
      mentions: {
        maxFileSize: mentions.max_file_size,
        urlCacheTtlSeconds: mentions.url_cache_ttl_seconds,
        maxUrlsPerRequest: mentions.max_urls_per_request,
      },
      chat: { defaultMode: chat.default_mode, defaultSafety: chat.default_safety },
    },
    persistence: { enabled: persistence.enabled, dataDir: paths.dataDir, dbPath: paths.dbPath },
    logging: {
      level: logging.level,
      format: logging.format,
      ...optional("file", logging.file),
    },
  };
}

/** {@link XzatomaConfig} back in the file's snake_case shape (for `config show`). */
export function toFileShape(config: XzatomaConfig): ConfigFileShape {
  const { provider, agent, persistence, logging } = config;
  const { conversation, tools, terminal, fetch, mentions, chat } = agent;
  return {
    provider: {
      type: provider.type,
      ollama: {
        host: provider.ollama.host,
        model: provider.ollama.model,
        request_timeout_seconds: provider.ollama.requestTimeoutSeconds,
      },
      openai: {
        base_url: provider.openai.baseUrl,
        model: provider.openai.model,
        ...optional("organization_id", provider.openai.organizationId),
        request_timeout_seconds: provider.openai.requestTimeoutSeconds,
        enable_streaming: provider.openai.enableStreaming,
      },
      copilot: {
        model: provider.copilot.model,
        ...optional("client_id", provider.copilot.clientId),
        ...optional("api_base", provider.copilot.apiBase),
      },
      local: { ...optional("model_path", provider.local.modelPath) },
    },
    agent: {
      max_turns: agent.maxTurns,
      timeout_seconds: agent.timeoutSeconds,
      max_tool_calls: agent.maxToolCalls,
      max_tool_calls_per_step: agent.maxToolCallsPerStep,
      max_consecutive_tool_steps: agent.maxConsecutiveToolSteps,
      conversation: {
        max_tokens: conversation.maxTokens,
        min_retain_turns: conversation.minRetainTurns,
        prune_threshold: conversation.pruneThreshold,
        warning_threshold: conversation.warningThreshold,
        critical_threshold: conversation.criticalThreshold,
      },
      tools: {
        max_output_size: tools.maxOutputSize,
        max_file_read_size: tools.maxFileReadSize,
        packages: tools.packages.map((entry) => ({ name: entry.name, options: entry.options })),
      },
      terminal: {
        default_mode: FROM_EXECUTION_MODE[terminal.defaultMode],
        timeout_seconds: terminal.timeoutSeconds,
        max_stdout_bytes: terminal.maxStdoutBytes,
        max_stderr_bytes: terminal.maxStderrBytes,
        allowlist: [...terminal.allowlist],
        custom_denylist: [...terminal.customDenylist],
        sandbox: terminal.sandbox,
        network: terminal.network,
        allow_unattended_git_writes: terminal.allowUnattendedGitWrites,
      },
      fetch: {
        timeout_seconds: fetch.timeoutSeconds,
        max_response_size: fetch.maxResponseSize,
        allowed_ports: [...fetch.allowedPorts],
        allowed_hosts: [...fetch.allowedHosts],
      },
      mentions: {
        max_file_size: mentions.maxFileSize,
        url_cache_ttl_seconds: mentions.urlCacheTtlSeconds,
        max_urls_per_request: mentions.maxUrlsPerRequest,
      },
      chat: { default_mode: chat.defaultMode, default_safety: chat.defaultSafety },
    },
    persistence: {
      enabled: persistence.enabled,
      data_dir: persistence.dataDir,
      db_path: persistence.dbPath,
    },
    logging: { level: logging.level, format: logging.format, ...optional("file", logging.file) },
  };
}

/**
 * The agent's limits from the configuration, for `new Agent({ limits })`.
 *
 * @example
 * const limits = toAgentLimits(config); // { maxTurns: 50, timeoutMs: 300_000, ... }
 */
export function toAgentLimits(config: XzatomaConfig): AgentLimits {
  return {
    maxTurns: config.agent.maxTurns,
    timeoutMs: config.agent.timeoutSeconds * 1000,
    maxToolCalls: config.agent.maxToolCalls,
    maxToolCallsPerStep: config.agent.maxToolCallsPerStep,
    maxConsecutiveToolSteps: config.agent.maxConsecutiveToolSteps,
  };
}
