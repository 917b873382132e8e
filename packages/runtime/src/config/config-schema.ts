import { DEFAULT_OLLAMA_HOST, normalizeOllamaHost } from "@xzatoma/providers";
import { DEFAULT_MAX_FILE_READ_BYTES } from "@xzatoma/tools";
import { z } from "zod";
import {
  DEFAULT_AGENT_LIMITS,
  DEFAULT_MAX_OUTPUT_BYTES,
  expecting,
  filePath,
  flag,
  fraction,
  fractionOrOff,
  httpUrl,
  isHttpUrlWithoutCredentials,
  oneOf,
  portList,
  positiveInteger,
  text,
  textList,
  toolPackageList,
  wholeNumber,
} from "@xzatoma/core";
import { chatConfigSchema, mentionsConfigSchema } from "./front-end-schemas.js";
import {
  pendingQuotaSchema,
  pendingSubagentSchema,
  pendingWatcherSchema,
  pendingXzeprSchema,
} from "./pending-sections.js";

/** The model providers XZatoma knows. */
export const PROVIDER_TYPES = ["ollama", "openai", "copilot", "local"] as const;
/** `provider.type`. */
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** `agent.terminal.default_mode`, as the seeds spell it in the config file. */
export const TERMINAL_MODES = ["interactive", "restricted_autonomous", "full_autonomous"] as const;

const MiB = 1024 * 1024;

/** An Ollama host as users write it: `host:port` or a URL. */
function ollamaHost() {
  return expecting(
    z.string().refine((value) => {
      if (value.trim() === "") return false;
      try {
        const normalized = normalizeOllamaHost(value);
        return isHttpUrlWithoutCredentials(normalized);
      } catch {
        return false;
      }
    }),
    "a host such as localhost:11434 or http://host:11434",
  );
}

const ollamaSchema = z.strictObject({
  host: ollamaHost().default(DEFAULT_OLLAMA_HOST),
  model: text().default("llama3.2:latest"),
  request_timeout_seconds: positiveInteger().default(600),
});

const openaiSchema = z.strictObject({
  base_url: httpUrl().default("https://api.openai.com/v1"),
  model: text().default("gpt-4o-mini"),
  organization_id: text().optional(),
  request_timeout_seconds: positiveInteger().default(600),
  enable_streaming: flag().default(true),
});

const copilotSchema = z.strictObject({
  model: text().default("gpt-5-mini"),
  client_id: text().optional(),
  api_base: httpUrl().optional(),
});

const localSchema = z.strictObject({
  model_path: filePath().optional(),
});

const providerSchema = z.strictObject({
  type: oneOf(PROVIDER_TYPES).default("ollama"),
  ollama: ollamaSchema.prefault({}),
  openai: openaiSchema.prefault({}),
  copilot: copilotSchema.prefault({}),
  local: localSchema.prefault({}),
});

const conversationSchema = z
  .strictObject({
    max_tokens: positiveInteger().default(100_000),
    min_retain_turns: wholeNumber().default(5),
    prune_threshold: fractionOrOff().default(0.8),
    warning_threshold: fraction().default(0.85),
    critical_threshold: fraction().default(0.95),
  })
  .superRefine((value, context) => {
    if (value.critical_threshold < value.warning_threshold) {
      context.addIssue({
        code: "custom",
        path: ["critical_threshold"],
        params: { explained: true },
        message: `must be at least warning_threshold (${value.warning_threshold}), got ${value.critical_threshold}`,
      });
    }
  });

const toolsSchema = z.strictObject({
  max_output_size: positiveInteger().default(DEFAULT_MAX_OUTPUT_BYTES),
  max_file_read_size: positiveInteger().default(DEFAULT_MAX_FILE_READ_BYTES),
  packages: toolPackageList().default([]),
});

const terminalSchema = z.strictObject({
  default_mode: oneOf(TERMINAL_MODES).default("restricted_autonomous"),
  timeout_seconds: positiveInteger().default(30),
  max_stdout_bytes: positiveInteger().default(10 * MiB),
  max_stderr_bytes: positiveInteger().default(MiB),
  allowlist: textList().default([]),
  custom_denylist: textList().default([]),
  sandbox: flag().default(true),
  network: flag().default(false),
  allow_unattended_git_writes: flag().default(false),
});

const fetchSchema = z.strictObject({
  timeout_seconds: positiveInteger().default(60),
  max_response_size: positiveInteger().default(MiB),
  allowed_ports: portList().default([80, 443]),
  allowed_hosts: textList().default([]),
});

const agentSchema = z.strictObject({
  max_turns: positiveInteger(1000).default(DEFAULT_AGENT_LIMITS.maxTurns),
  timeout_seconds: positiveInteger().default(DEFAULT_AGENT_LIMITS.timeoutMs / 1000),
  max_tool_calls: positiveInteger().default(DEFAULT_AGENT_LIMITS.maxToolCalls),
  max_tool_calls_per_step: positiveInteger().default(DEFAULT_AGENT_LIMITS.maxToolCallsPerStep),
  max_consecutive_tool_steps: positiveInteger().default(
    DEFAULT_AGENT_LIMITS.maxConsecutiveToolSteps,
  ),
  conversation: conversationSchema.prefault({}),
  tools: toolsSchema.prefault({}),
  terminal: terminalSchema.prefault({}),
  fetch: fetchSchema.prefault({}),
  mentions: mentionsConfigSchema.prefault({}),
  chat: chatConfigSchema.prefault({}),
  subagent: pendingSubagentSchema,
  quota: pendingQuotaSchema,
});

const persistenceSchema = z.strictObject({
  enabled: flag().default(true),
  /** Default: `~/.xzatoma`, filled in by the loader. */
  data_dir: filePath().optional(),
  /** Default: `history.db` in `data_dir`, filled in by the loader. */
  db_path: filePath().optional(),
});

const loggingSchema = z.strictObject({
  /** The chat trace log (every agent event, one JSON line each); default `<data dir>/logs/chat.log`. */
  file: filePath().optional(),
});

/**
 * The whole configuration file, in the seeds' snake_case names. Every object is strict:
 * an unknown key is an error. Parsing `{}` gives every default. The sections in
 * `PENDING_CONFIG_SECTIONS` are validated but absent unless set, and nothing reads them yet.
 */
export const runtimeConfigSchema = z.strictObject({
  provider: providerSchema.prefault({}),
  agent: agentSchema.prefault({}),
  persistence: persistenceSchema.prefault({}),
  logging: loggingSchema.prefault({}),
  watcher: pendingWatcherSchema,
  xzepr: pendingXzeprSchema,
});

/** The configuration as the file spells it, after defaults. */
export type ConfigFileShape = z.output<typeof runtimeConfigSchema>;

/**
 * The configuration a runtime is built from: the file's shape after defaults, with the data
 * directory and the history database resolved to absolute paths.
 */
export type RuntimeConfig = ConfigFileShape & {
  readonly persistence: ConfigFileShape["persistence"] & {
    readonly data_dir: string;
    readonly db_path: string;
  };
};

/** Keys whose values are paths: `~` is expanded and relative paths are made absolute. */
export const PATH_KEYS: readonly string[] = [
  "provider.local.model_path",
  "persistence.data_dir",
  "persistence.db_path",
  "logging.file",
];

/** `agent.terminal.default_mode` as the safety layer names execution modes. */
export function executionModeOf(
  mode: RuntimeConfig["agent"]["terminal"]["default_mode"],
): "interactive" | "restricted" | "full" {
  switch (mode) {
    case "interactive":
      return "interactive";
    case "restricted_autonomous":
      return "restricted";
    case "full_autonomous":
      return "full";
  }
}
