import path from "node:path";
import { approvalPolicyOf, type RuntimeConfig, type SessionModes } from "@xzatoma/runtime";

/**
 * The modes `xzatoma chat` and `xzatoma agent` start in. A person is present: the approval
 * policy is `agent.approval_policy` (`--approval`), by default `on-escalation`.
 */
export function chatModes(config: RuntimeConfig): SessionModes {
  return { chatMode: config.agent.chat.default_mode, approvalPolicy: approvalPolicyOf(config) };
}

/**
 * The modes `xzatoma run` runs in. Nobody is present: the approval policy is `never`, so a
 * command that does not escalate runs in the sandbox and an escalation is refused with its
 * reason, whatever the configuration says.
 */
export function runModes(config: RuntimeConfig): SessionModes {
  return { chatMode: config.agent.chat.default_mode, approvalPolicy: "never" };
}

/** The chat trace log: `logging.file`, else `<data dir>/logs/chat.log`. */
export function chatLogFile(config: RuntimeConfig): string {
  return config.logging.file ?? path.join(config.persistence.data_dir, "logs", "chat.log");
}
