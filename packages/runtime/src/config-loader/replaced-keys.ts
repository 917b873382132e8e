/**
 * Keys of the original XZatoma's configuration that this one does not take, each with what
 * to do instead. A file written for the original then fails with that advice rather than a
 * bare "unknown key": each of these did nothing there or is done another way here.
 */
export const REPLACED_KEYS: Readonly<Record<string, string>> = {
  "agent.subagent.telemetry_enabled":
    "subagents report through the run's telemetry, which is on or off as a whole; remove this key",
  "agent.subagent.persistence_path":
    "subagents' conversations are stored under their parent's in the history database of the data directory (persistence.data_dir); remove this key",
  "agent.subagent.chat_enabled":
    "subagent and parallel_subagent are always offered in chat and in editor sessions, and in run when agent.subagent.enabled is true; remove this key",
  "agent.subagent.provider_override":
    "set agent.subagent.provider (and agent.subagent.model) to run subagents on another provider; remove this key",
  "agent.chat.allow_mode_switching": "the mode can always be switched (/mode); remove this key",
  "agent.chat.persist_special_commands":
    "slash commands are not stored in the conversation; remove this key",
};
