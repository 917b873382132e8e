import { SELECTED_MODEL_KEY, type ValueKind } from "./value-kinds.js";

/** One environment variable and the config key it sets. */
export interface EnvMapping {
  /** The variable, e.g. `XZATOMA_MAX_TURNS`. */
  readonly variable: string;
  /** The key path it sets; {@link SELECTED_MODEL_KEY} means the selected provider's model. */
  readonly key: string;
  /** How its text is read. */
  readonly kind: ValueKind;
}

/**
 * Every environment variable the configuration reads, in the order they are applied: a
 * later variable wins over an earlier one that sets the same key (so `XZATOMA_OLLAMA_HOST`
 * wins over `OLLAMA_HOST`, and `XZATOMA_MODEL` over `XZATOMA_OLLAMA_MODEL`). An empty or
 * blank variable counts as unset. Credentials are not configuration: API keys and tokens
 * are read by the provider and auth layers, never through this table.
 *
 * `XZATOMA_CONFIG` is not listed: it names the config file itself (like `--config`).
 */
export const ENV_MAPPINGS: readonly EnvMapping[] = [
  // Plain names used by Ollama itself and by the seeds; the XZATOMA_ names win over them.
  { variable: "OLLAMA_HOST", key: "provider.ollama.host", kind: "text" },
  { variable: "OLLAMA_MODEL", key: "provider.ollama.model", kind: "text" },
  { variable: "COPILOT_MODEL", key: "provider.copilot.model", kind: "text" },

  { variable: "XZATOMA_PROVIDER", key: "provider.type", kind: "text" },
  { variable: "XZATOMA_OLLAMA_HOST", key: "provider.ollama.host", kind: "text" },
  { variable: "XZATOMA_OLLAMA_MODEL", key: "provider.ollama.model", kind: "text" },
  {
    variable: "XZATOMA_OLLAMA_REQUEST_TIMEOUT",
    key: "provider.ollama.request_timeout_seconds",
    kind: "number",
  },
  { variable: "XZATOMA_OPENAI_BASE_URL", key: "provider.openai.base_url", kind: "text" },
  { variable: "XZATOMA_OPENAI_MODEL", key: "provider.openai.model", kind: "text" },
  { variable: "XZATOMA_OPENAI_ORG_ID", key: "provider.openai.organization_id", kind: "text" },
  {
    variable: "XZATOMA_OPENAI_REQUEST_TIMEOUT",
    key: "provider.openai.request_timeout_seconds",
    kind: "number",
  },
  {
    variable: "XZATOMA_OPENAI_STREAMING",
    key: "provider.openai.enable_streaming",
    kind: "boolean",
  },
  { variable: "XZATOMA_COPILOT_MODEL", key: "provider.copilot.model", kind: "text" },
  { variable: "XZATOMA_COPILOT_CLIENT_ID", key: "provider.copilot.client_id", kind: "text" },
  { variable: "XZATOMA_COPILOT_API_BASE", key: "provider.copilot.api_base", kind: "text" },
  { variable: "XZATOMA_LOCAL_MODEL_PATH", key: "provider.local.model_path", kind: "text" },
  { variable: "XZATOMA_MODEL", key: SELECTED_MODEL_KEY, kind: "text" },

  { variable: "XZATOMA_MAX_TURNS", key: "agent.max_turns", kind: "number" },
  { variable: "XZATOMA_TIMEOUT_SECONDS", key: "agent.timeout_seconds", kind: "number" },
  { variable: "XZATOMA_MAX_TOOL_CALLS", key: "agent.max_tool_calls", kind: "number" },
  {
    variable: "XZATOMA_MAX_TOOL_CALLS_PER_STEP",
    key: "agent.max_tool_calls_per_step",
    kind: "number",
  },
  {
    variable: "XZATOMA_MAX_CONSECUTIVE_TOOL_STEPS",
    key: "agent.max_consecutive_tool_steps",
    kind: "number",
  },
  { variable: "XZATOMA_MAX_TOKENS", key: "agent.conversation.max_tokens", kind: "number" },
  {
    variable: "XZATOMA_MIN_RETAIN_TURNS",
    key: "agent.conversation.min_retain_turns",
    kind: "number",
  },
  {
    variable: "XZATOMA_PRUNE_THRESHOLD",
    key: "agent.conversation.prune_threshold",
    kind: "fractionOrOff",
  },
  {
    variable: "XZATOMA_WARNING_THRESHOLD",
    key: "agent.conversation.warning_threshold",
    kind: "number",
  },
  {
    variable: "XZATOMA_CRITICAL_THRESHOLD",
    key: "agent.conversation.critical_threshold",
    kind: "number",
  },
  { variable: "XZATOMA_MAX_OUTPUT_SIZE", key: "agent.tools.max_output_size", kind: "number" },
  { variable: "XZATOMA_MAX_FILE_READ_SIZE", key: "agent.tools.max_file_read_size", kind: "number" },
  { variable: "XZATOMA_TOOL_PACKAGES", key: "agent.tools.packages", kind: "list" },
  { variable: "XZATOMA_EXECUTION_MODE", key: "agent.terminal.default_mode", kind: "text" },
  {
    variable: "XZATOMA_TERMINAL_TIMEOUT_SECONDS",
    key: "agent.terminal.timeout_seconds",
    kind: "number",
  },
  {
    variable: "XZATOMA_TERMINAL_MAX_STDOUT_BYTES",
    key: "agent.terminal.max_stdout_bytes",
    kind: "number",
  },
  {
    variable: "XZATOMA_TERMINAL_MAX_STDERR_BYTES",
    key: "agent.terminal.max_stderr_bytes",
    kind: "number",
  },
  { variable: "XZATOMA_TERMINAL_ALLOWLIST", key: "agent.terminal.allowlist", kind: "list" },
  { variable: "XZATOMA_TERMINAL_DENYLIST", key: "agent.terminal.custom_denylist", kind: "list" },
  { variable: "XZATOMA_SANDBOX", key: "agent.terminal.sandbox", kind: "boolean" },
  { variable: "XZATOMA_TERMINAL_NETWORK", key: "agent.terminal.network", kind: "boolean" },
  { variable: "XZATOMA_FETCH_TIMEOUT_SECONDS", key: "agent.fetch.timeout_seconds", kind: "number" },
  { variable: "XZATOMA_FETCH_MAX_BYTES", key: "agent.fetch.max_response_size", kind: "number" },
  {
    variable: "XZATOMA_FETCH_ALLOWED_PORTS",
    key: "agent.fetch.allowed_ports",
    kind: "numberList",
  },
  { variable: "XZATOMA_FETCH_ALLOWED_HOSTS", key: "agent.fetch.allowed_hosts", kind: "list" },
  {
    variable: "XZATOMA_MENTION_MAX_FILE_SIZE",
    key: "agent.mentions.max_file_size",
    kind: "number",
  },
  { variable: "XZATOMA_CHAT_MODE", key: "agent.chat.default_mode", kind: "text" },
  { variable: "XZATOMA_SAFETY_MODE", key: "agent.chat.default_safety", kind: "text" },

  { variable: "XZATOMA_PERSISTENCE_ENABLED", key: "persistence.enabled", kind: "boolean" },
  { variable: "XZATOMA_HOME", key: "persistence.data_dir", kind: "text" },
  { variable: "XZATOMA_HISTORY_DB", key: "persistence.db_path", kind: "text" },

  { variable: "XZATOMA_LOG_FILE", key: "logging.file", kind: "text" },
];
