import path from "node:path";
import { executionModeOf, type RuntimeConfig, type SessionModes } from "@xzatoma/runtime";

/**
 * The modes `xzatoma chat` starts in. A person is present, so a configured restricted
 * autonomous mode becomes interactive (asks instead of refusing); `--allow-dangerous`
 * gives full autonomous mode.
 */
export function chatModes(config: RuntimeConfig, allowDangerous: boolean): SessionModes {
  const configured = executionModeOf(config.agent.terminal.default_mode);
  return {
    chatMode: config.agent.chat.default_mode,
    safetyMode: config.agent.chat.default_safety,
    executionMode: allowDangerous
      ? "full"
      : configured === "restricted"
        ? "interactive"
        : configured,
  };
}

/**
 * The modes `xzatoma run` runs in. Nobody is present: an interactive configuration runs as
 * restricted autonomous (a call that needs a yes is refused), YOLO never applies, and only
 * `--allow-dangerous` or `full_autonomous` in the configuration gives full autonomous mode.
 */
export function runModes(config: RuntimeConfig, allowDangerous: boolean): SessionModes {
  const configured = executionModeOf(config.agent.terminal.default_mode);
  return {
    chatMode: config.agent.chat.default_mode,
    safetyMode: "safe",
    executionMode: allowDangerous || configured === "full" ? "full" : "restricted",
  };
}

/** The chat trace log: `logging.file`, else `<data dir>/logs/chat.log`. */
export function chatLogFile(config: RuntimeConfig): string {
  return config.logging.file ?? path.join(config.persistence.data_dir, "logs", "chat.log");
}
