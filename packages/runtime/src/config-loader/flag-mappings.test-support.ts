import type { FlagMapping } from "./load-config.js";
import { SELECTED_MODEL_KEY } from "./value-kinds.js";

/**
 * A front end's command-line table for the loader's tests: the options of XZatoma's CLI
 * (its `FLAG_MAPPINGS`) that the tests pass as `flags`.
 */
export const TEST_FLAG_MAPPINGS: readonly FlagMapping[] = [
  { option: "provider", flag: "--provider", key: "provider.type", kind: "text" },
  { option: "model", flag: "--model", key: SELECTED_MODEL_KEY, kind: "text" },
  { option: "maxTurns", flag: "--max-turns", key: "agent.max_turns", kind: "number" },
  { option: "timeout", flag: "--timeout", key: "agent.timeout_seconds", kind: "number" },
  { option: "mode", flag: "--mode", key: "agent.chat.default_mode", kind: "text" },
  { option: "sandbox", flag: "--no-sandbox", key: "agent.terminal.sandbox", kind: "boolean" },
  { option: "storagePath", flag: "--storage-path", key: "persistence.db_path", kind: "text" },
];
