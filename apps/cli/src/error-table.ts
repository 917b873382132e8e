import type { ErrorCode } from "@xzatoma/errors";
import { ExitCode } from "./exit-codes.js";

/** How the CLI presents one error code: its exit code and what the person can do next. */
interface ErrorPresentation {
  readonly exit: number;
  /** One line of advice, from the error's fields; absent when the message says it all. */
  readonly hint?: (fields: Readonly<Record<string, unknown>>) => string | undefined;
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/**
 * Every error code a library may throw, with the CLI's exit code and hint: the one place
 * where codes become command-line advice (libraries never name flags or commands). Typed
 * as a record over `ErrorCode`, so a new code does not compile until it has a row here.
 */
export const ERROR_TABLE: Readonly<Record<ErrorCode, ErrorPresentation>> = {
  INVALID_ARGUMENT: { exit: ExitCode.failure },
  CONFIG_INVALID: {
    exit: ExitCode.failure,
    hint: (fields) => {
      const problems = Array.isArray(fields["problems"])
        ? (fields["problems"] as readonly Readonly<Record<string, unknown>>[])
        : [];
      const credential = problems.find((problem) => problem["reason"] === "credential-in-file");
      if (credential) {
        const provider = text(credential["provider"]);
        const variable = text(credential["variable"]);
        if (provider === "openai" || provider === "copilot")
          return `Sign in with 'xzatoma auth login ${provider}' (the keyring), or set ${variable ?? "its environment variable"}.`;
        if (provider !== undefined)
          return "Sign in with 'xzatoma auth login', or set the provider's environment variable.";
        return "Set the credential in the environment variable the feature documents.";
      }
      const missing = problems.find((problem) => problem["reason"] === "config-file-missing");
      if (missing)
        return text(missing["variable"]) !== undefined
          ? `Point ${text(missing["variable"])} at an existing file, or unset it.`
          : "Check the path given with --config or XZATOMA_CONFIG.";
      return "Fix the key named above; 'xzatoma config show' prints what is in force.";
    },
  },
  FEATURE_NOT_AVAILABLE: { exit: ExitCode.failure },
  PROVIDER_UNAVAILABLE: {
    exit: ExitCode.failure,
    hint: (fields) => {
      const provider = text(fields["provider"]);
      if (provider === "ollama")
        return "Start Ollama ('ollama serve'), or point OLLAMA_HOST or --host at it.";
      if (provider === "openai")
        return "Check that the server is up, and OPENAI_BASE_URL or --base-url.";
      if (provider === "local") {
        const reason = text(fields["reason"]);
        if (reason === "model-missing" || reason === "model-invalid")
          return "Run 'bash tools/start.sh' in a checkout (it installs the model), or name a GGUF file with provider.local.model_path or --model.";
        return "The embedded model needs the optional package node-llama-cpp; install it next to XZatoma, or pick another provider with --provider.";
      }
      return "Check that the provider's server is reachable, or pick another with --provider.";
    },
  },
  PROVIDER_ERROR: { exit: ExitCode.failure },
  PROVIDER_AUTH: {
    exit: ExitCode.failure,
    hint: (fields) =>
      text(fields["provider"]) === "copilot"
        ? "Sign in with 'xzatoma auth login copilot', or set GITHUB_TOKEN / COPILOT_GITHUB_TOKEN."
        : "Set the provider's key (OPENAI_API_KEY for openai) or run 'xzatoma auth login'.",
  },
  PROVIDER_TIMEOUT: {
    exit: ExitCode.failure,
    hint: (fields) => {
      // Only the providers that have the key are told to raise it, by its real name.
      const provider = text(fields["provider"]);
      return provider === "ollama" || provider === "openai"
        ? `Raise provider.${provider}.request_timeout_seconds, or try a smaller model.`
        : "Try again, or a smaller model; check that the provider's server is up.";
    },
  },
  MODEL_NOT_FOUND: {
    exit: ExitCode.failure,
    hint: () =>
      "'xzatoma models list' shows the models the provider offers; pick one with --model.",
  },
  EMPTY_RESPONSE: { exit: ExitCode.failure },
  CONTEXT_LENGTH_EXCEEDED: {
    exit: ExitCode.limit,
    hint: () => "Start a new conversation, or use a model with a larger context window.",
  },
  CREDENTIAL_STORE_UNAVAILABLE: {
    exit: ExitCode.failure,
    hint: () =>
      "No keyring is available: set the token in the environment (OPENAI_API_KEY, GITHUB_TOKEN) or install and unlock a keyring (gnome-keyring, KWallet).",
  },
  TOOL_ALREADY_REGISTERED: { exit: ExitCode.failure },
  TOOL_PACKAGE_INVALID: {
    exit: ExitCode.failure,
    hint: () => "Check agent.tools.packages in the configuration file.",
  },
  GLOB_INVALID: { exit: ExitCode.failure },
  PATH_OUTSIDE_WORKSPACE: { exit: ExitCode.failure },
  PATH_PROTECTED: { exit: ExitCode.failure },
  URL_BLOCKED: { exit: ExitCode.failure },
  PATTERN_INVALID: { exit: ExitCode.failure },
  PATTERN_TOO_COMPLEX: { exit: ExitCode.failure },
  SANDBOX_REFUSED: { exit: ExitCode.failure },
  PLAN_INVALID: { exit: ExitCode.failure },
  CONVERSATION_FORMAT_INVALID: { exit: ExitCode.failure },
  CONVERSATION_NOT_FOUND: {
    exit: ExitCode.failure,
    hint: () => "'xzatoma history list' shows the stored conversations.",
  },
  AMBIGUOUS_CONVERSATION_ID: {
    exit: ExitCode.usage,
    hint: () => "Give more characters of the id ('xzatoma history list' shows them).",
  },
  HISTORY_OPEN_FAILED: {
    exit: ExitCode.failure,
    hint: () =>
      "Point persistence.db_path (XZATOMA_PERSISTENCE_DB_PATH) at a file this user may create and write, or turn history off with persistence.enabled: false.",
  },
  HISTORY_MIGRATIONS_MISSING: {
    exit: ExitCode.failure,
    hint: () =>
      "This install lacks the history migrations (the drizzle/ folder of @xzatoma/persistence): reinstall XZatoma, or turn history off with persistence.enabled: false.",
  },
  HISTORY_MIGRATION_FAILED: { exit: ExitCode.failure },
  HISTORY_SQLITE_UNAVAILABLE: {
    exit: ExitCode.failure,
    hint: (fields) => {
      const required = text(fields["requiredNodeVersion"]) ?? ">=22.16";
      const running = text(fields["nodeVersion"]);
      return `History needs Node.js ${required}${running ? ` (this is ${running})` : ""}: upgrade Node.js, or turn history off with persistence.enabled: false.`;
    },
  },
  HISTORY_UNAVAILABLE: {
    exit: ExitCode.failure,
    hint: () => "History is off (persistence.enabled: false); turn it on to keep conversations.",
  },
  XZEPR_EVENT_INVALID: { exit: ExitCode.failure },
  EVENT_FILTER_INVALID: { exit: ExitCode.usage },
  KAFKA_AUTH_FAILED: {
    exit: ExitCode.failure,
    hint: (fields) => {
      const key = text(fields["configPath"]) ?? "watcher.kafka";
      return `Check ${key}.security (protocol, sasl_mechanism, sasl_username), the password in KAFKA_SASL_PASSWORD, and the user's permissions on the topics and group.`;
    },
  },
  KAFKA_UNAVAILABLE: {
    exit: ExitCode.failure,
    hint: (fields) => {
      const key = text(fields["configPath"]) ?? "watcher.kafka";
      const brokers = Array.isArray(fields["brokers"])
        ? (fields["brokers"] as readonly unknown[]).filter((broker) => typeof broker === "string")
        : [];
      const where = brokers.length > 0 ? ` at ${brokers.join(", ")}` : "";
      return `Check that Kafka is running${where}, and ${key}.brokers and ${key}.security.`;
    },
  },
  KAFKA_CONSUMER_FAILED: { exit: ExitCode.failure },
  XZEPR_API_ERROR: {
    exit: ExitCode.failure,
    hint: (fields) => {
      const reason = text(fields["reason"]);
      if (reason === "unauthorized") return "Check the XZepr API token in XZEPR_API_TOKEN.";
      if (reason === "network_error" || reason === "timeout")
        return "Check that XZepr is running and that xzepr.api_url points at it.";
      return undefined;
    },
  },
};

/** The exit code and the lines to print for an error with `code` and `fields`. */
export function presentError(error: {
  readonly code: string;
  readonly message: string;
  readonly fields?: Readonly<Record<string, unknown>>;
}): { exit: number; lines: string[] } {
  const row = (ERROR_TABLE as Readonly<Record<string, ErrorPresentation>>)[error.code];
  const lines = [`error [${error.code}]: ${error.message}`];
  const hint = row?.hint?.(error.fields ?? {});
  if (hint) lines.push(`hint: ${hint}`);
  return { exit: row?.exit ?? ExitCode.failure, lines };
}
