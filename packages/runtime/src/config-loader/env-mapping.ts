import { DERIVED_ENV_MAPPINGS } from "../config/config-reader.generated.js";
import { SELECTED_MODEL_KEY, type ValueKind } from "./value-kinds.js";

export { ENV_PREFIX, environmentVariableOf } from "./env-names.js";

/** One environment variable and the config key it sets. */
export interface EnvMapping {
  /** The variable, e.g. `XZATOMA_AGENT_MAX_TURNS`. */
  readonly variable: string;
  /** The key path it sets; {@link SELECTED_MODEL_KEY} means the selected provider's model. */
  readonly key: string;
  /** How its text is read. */
  readonly kind: ValueKind;
  /**
   * `derived`: the key path's own name; `ecosystem`: a name other tools use too, or a
   * shorthand. For one key, a derived name wins over an ecosystem name.
   */
  readonly origin: "derived" | "ecosystem";
  /**
   * `fallback`: the variable counts only where neither the file nor another variable sets
   * the key (`XZATOMA_HOME`: `persistence.data_dir` in the file wins over it). Otherwise
   * it overrides the file, like every variable.
   */
  readonly layer?: "fallback";
}

/**
 * The few names that are not derived: those Ollama and OpenAI's tools use for the same
 * settings, and shorthands. Credentials (`OPENAI_API_KEY`, `GITHUB_TOKEN`, ...) are not
 * configuration: the providers' credential store reads them.
 */
export const ECOSYSTEM_ENV_MAPPINGS: readonly EnvMapping[] = [
  { variable: "OLLAMA_HOST", key: "provider.ollama.host", kind: "text", origin: "ecosystem" },
  {
    variable: "OPENAI_BASE_URL",
    key: "provider.openai.base_url",
    kind: "text",
    origin: "ecosystem",
  },
  { variable: "XZATOMA_PROVIDER", key: "provider.type", kind: "text", origin: "ecosystem" },
  { variable: "XZATOMA_MODEL", key: SELECTED_MODEL_KEY, kind: "text", origin: "ecosystem" },
  {
    variable: "XZATOMA_HOME",
    key: "persistence.data_dir",
    kind: "text",
    origin: "ecosystem",
    layer: "fallback",
  },
];

/** Variables named `XZATOMA_*` that are not configuration keys. */
export const NON_KEY_VARIABLES: readonly string[] = [
  /** The config file itself, like `--config`. */
  "XZATOMA_CONFIG",
  /** The bubblewrap binary the sandbox uses (`bwrapPathOf`). */
  "XZATOMA_BWRAP",
];

/**
 * Every environment variable the configuration reads, in the order they are applied: a
 * later variable wins over an earlier one that sets the same key, so the derived names
 * (one per key of the schema) come after the ecosystem names. An empty or blank variable
 * counts as unset.
 */
export const ENV_MAPPINGS: readonly EnvMapping[] = [
  ...ECOSYSTEM_ENV_MAPPINGS,
  // One per leaf key of the schema, generated from it (`config-reader.generated.ts`).
  ...DERIVED_ENV_MAPPINGS,
];
