import { SELECTED_MODEL_KEY, type FlagMapping } from "@xzatoma/runtime";

/**
 * The command-line options that set configuration keys, by commander property name: those
 * of `run`, `chat` and `config show`, and the global `--storage-path`.
 * Options not listed here (`prompt`, `json`, `workspace`, ...) are not configuration and
 * are ignored by the loader (`loadConfig` of `@xzatoma/runtime`, given this table as
 * `flagMappings`). Values that are `undefined` are ignored too; pass only the
 * options the user typed (see `pickExplicitFlags`), not commander's defaults.
 */
export const FLAG_MAPPINGS: readonly FlagMapping[] = [
  { option: "provider", flag: "--provider", key: "provider.type", kind: "text" },
  { option: "model", flag: "--model", key: SELECTED_MODEL_KEY, kind: "text" },
  { option: "host", flag: "--host", key: "provider.ollama.host", kind: "text" },
  { option: "baseUrl", flag: "--base-url", key: "provider.openai.base_url", kind: "text" },
  { option: "maxTurns", flag: "--max-turns", key: "agent.max_turns", kind: "number" },
  { option: "timeout", flag: "--timeout", key: "agent.timeout_seconds", kind: "number" },
  { option: "maxToolCalls", flag: "--max-tool-calls", key: "agent.max_tool_calls", kind: "number" },
  { option: "mode", flag: "--mode", key: "agent.chat.default_mode", kind: "text" },
  { option: "sandbox", flag: "--no-sandbox", key: "agent.terminal.sandbox", kind: "boolean" },
  { option: "approval", flag: "--approval", key: "agent.approval_policy", kind: "text" },
  { option: "storagePath", flag: "--storage-path", key: "persistence.db_path", kind: "text" },
];

/** What {@link pickExplicitFlags} needs of a commander `Command`. */
export interface CommandOptionSource {
  opts(): Record<string, unknown>;
  getOptionValueSource(key: string): string | undefined;
}

/**
 * The options the user actually typed: commander also reports defaults (`--provider`'s
 * default, `true` for a `--no-sandbox` not given), which must not override the config file.
 *
 * @example
 * const flags = pickExplicitFlags(command); // { maxTurns: 5 } for `--max-turns 5`
 */
export function pickExplicitFlags(command: CommandOptionSource): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(command.opts())) {
    if (command.getOptionValueSource(name) === "cli") picked[name] = value;
  }
  return picked;
}
