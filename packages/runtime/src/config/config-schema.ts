import { providerConfigSchema } from "@xzatoma/providers";
import { persistenceConfigSchema } from "@xzatoma/persistence";
import { fetchConfigSchema, terminalConfigShape, toolsConfigSchema } from "@xzatoma/tools";
import { z } from "zod";
import { agentLimitsConfigShape, conversationConfigSchema, filePath, oneOf } from "@xzatoma/core";
import { quotaConfigSchema, subagentConfigSchema } from "../subagents/subagent-config.js";
import { chatConfigSchema, mentionsConfigSchema } from "./front-end-schemas.js";
import { watcherConfigSchema } from "@xzatoma/watcher/config";
import { xzeprConfigSchema } from "@xzatoma/xzepr/config";
import { mcpConfigSchema } from "@xzatoma/mcp";
import { hooksConfigSchema } from "../hooks/hooks-config.js";
import { APPROVAL_POLICIES, approvalPolicyFromLegacy, type ApprovalPolicy } from "@xzatoma/safety";

export { PROVIDER_TYPES, type ProviderType } from "@xzatoma/providers";

/** `agent.terminal.default_mode`, as the config file spells it. */
export const TERMINAL_MODES = ["interactive", "restricted_autonomous", "full_autonomous"] as const;

const terminalSchema = z.strictObject({
  default_mode: oneOf(TERMINAL_MODES).default("restricted_autonomous"),
  ...terminalConfigShape,
});

const agentSchema = z.strictObject({
  ...agentLimitsConfigShape,
  /**
   * When a person is asked (`untrusted`, `on-escalation`, `never`); unset, it follows the
   * deprecated `agent.terminal.default_mode` and `agent.chat.default_safety`. Where nobody is
   * present (`run`, the watcher) it is `never` whatever is set.
   */
  approval_policy: oneOf(APPROVAL_POLICIES).optional(),
  conversation: conversationConfigSchema.prefault({}),
  tools: toolsConfigSchema.prefault({}),
  terminal: terminalSchema.prefault({}),
  fetch: fetchConfigSchema.prefault({}),
  mentions: mentionsConfigSchema.prefault({}),
  chat: chatConfigSchema.prefault({}),
  subagent: subagentConfigSchema.prefault({}),
  quota: quotaConfigSchema.prefault({}),
});

const loggingSchema = z.strictObject({
  /** The chat trace log (every agent event, one JSON line each); default `<data dir>/logs/chat.log`. */
  file: filePath().optional(),
});

/**
 * The whole configuration file, in its snake_case names. Every object is strict:
 * an unknown key is an error. Parsing `{}` gives every default.
 */
export const runtimeConfigSchema = z.strictObject({
  provider: providerConfigSchema.prefault({}),
  agent: agentSchema.prefault({}),
  persistence: persistenceConfigSchema.prefault({}),
  logging: loggingSchema.prefault({}),
  /** MCP servers whose tools join the agent's (`mcp.servers`); none by default. */
  mcp: mcpConfigSchema.prefault({}),
  /** Commands run around tool calls (`hooks.PreToolUse`, `hooks.PostToolUse`); absent unless set. */
  hooks: hooksConfigSchema.optional(),
  /** The watcher service's section (`xzatoma-watcher run`, `xzatoma watch`); absent unless set. */
  watcher: watcherConfigSchema.optional(),
  /** XZepr's REST API, where the watcher reports results; absent unless set. */
  xzepr: xzeprConfigSchema.optional(),
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

/**
 * The approval policy where a person is present: `agent.approval_policy`, or what the
 * deprecated `agent.terminal.default_mode` and `agent.chat.default_safety` map to.
 */
export function approvalPolicyOf(config: RuntimeConfig): ApprovalPolicy {
  return (
    config.agent.approval_policy ??
    approvalPolicyFromLegacy({
      executionMode: executionModeOf(config.agent.terminal.default_mode),
      safetyMode: config.agent.chat.default_safety,
    })
  );
}

/** `agent.terminal.default_mode` as the old execution modes were named. */
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
