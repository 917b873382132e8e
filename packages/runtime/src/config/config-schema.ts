import { providerConfigSchema } from "@xzatoma/providers/config";
import { persistenceConfigSchema } from "@xzatoma/persistence/config";
import { fetchConfigSchema, terminalConfigShape, toolsConfigSchema } from "@xzatoma/tools/config";
import { z } from "zod";
import {
  agentLimitsConfigShape,
  conversationConfigSchema,
  oneOf,
  resolvedPath,
} from "@xzatoma/core/config";
import { quotaConfigSchema, subagentConfigSchema } from "../subagents/subagent-config.js";
import { chatConfigSchema, mentionsConfigSchema } from "./front-end-schemas.js";
import { watcherConfigSchema } from "./sections/watcher-config.js";
import { xzeprConfigSchema } from "./sections/xzepr-config.js";
import { mcpConfigSchema } from "@xzatoma/mcp/config";
import { hooksConfigSchema } from "../hooks/hooks-config-schema.js";
import { APPROVAL_POLICIES } from "@xzatoma/safety";
import { TERMINAL_MODES } from "./config-values.js";

export { PROVIDER_TYPES, type ProviderType } from "@xzatoma/providers";
export {
  approvalPolicyOf,
  executionModeOf,
  PATH_KEYS,
  TERMINAL_MODES,
  type RuntimeConfig,
} from "./config-values.js";

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
  file: resolvedPath().optional(),
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
