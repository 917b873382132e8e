export {
  Agent,
  type AgentOptions,
  type AgentResult,
  type AgentRunOptions,
  type ModelCallSettings,
} from "./agent.js";
export type { AgentEvent, AgentEventError, AgentEventType } from "./agent-event.js";
export { RunStop } from "./agent-run.js";
export {
  DEFAULT_AGENT_LIMITS,
  DEFAULT_MAX_OUTPUT_TOKENS,
  isLimitStop,
  resolveAgentLimits,
  type AgentLimits,
  type StopReason,
} from "./agent-limits.js";
export {
  agentOptionsFromConfig,
  type AgentConfigSlice,
  type AgentOptionsFromConfig,
} from "./agent-options-from-config.js";
// The configuration slices' zod schemas and field builders are in `@xzatoma/core/config`.
export type { AgentLimitsConfig, ConversationConfig } from "./agent-config.js";
export type { ConfigRule, ConfigRuleIssue } from "./config-rule.js";
export { criticalAtLeastWarning } from "./conversation-thresholds.js";
export { isHttpUrlWithoutCredentials } from "./http-url.js";
export { MAX_TIMER_MS, MAX_TIMER_SECONDS } from "./timer-limits.js";
export { toolPackageFromName } from "./tool-package-entry.js";
export {
  describeError,
  InvalidArgumentError,
  isXzatomaError,
  ProviderError,
  ProviderUnavailableError,
  XzatomaError,
  ERROR_CODES,
  type ErrorCode,
  type XzatomaErrorCode,
  type XzatomaErrorOptions,
} from "./errors.js";
export { toModelPrompt, toModelTools } from "./model-prompt.js";
export { toModelInputSchema } from "./model-input-schema.js";
export {
  defaultAssessment,
  defineTool,
  type JsonSchemaObject,
  type Tool,
  type ToolAssessment,
  type ToolVerdict,
  type ToolAccess,
  type ToolDefinition,
  type ToolDefinitionWithLoader,
  type ToolDefinitionWithSchema,
  type ToolExecutionContext,
  type ToolProgress,
} from "./tool.js";
export {
  createToolRegistry,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_TOOL_TIMEOUT_MS,
  type ApprovalDecision,
  type ApprovalHandler,
  type ApprovalRequest,
  type ToolCallRequest,
  type ToolExecutionHooks,
  type ToolRegistry,
  type ToolAuditEntry,
  type ToolAuditSink,
  type ToolRegistryOptions,
  type ToolSpecification,
} from "./tool-registry.js";
export {
  toolFailure,
  toolResultToModelText,
  toolSuccess,
  truncateToolResult,
  type ToolMetadata,
  type ToolResult,
} from "./tool-result.js";
export { addUsage, EMPTY_USAGE, type Usage } from "./usage.js";
export type { QuotaBudget, QuotaExceeded } from "./quota-exceeded.js";
export {
  createPlanProgress,
  parseYamlStrictly,
  PlanError,
  planFormatOf,
  planToPrompt,
  type Plan,
  type PlanFormat,
  type PlanInstruction,
  type PlanProgress,
  type PlanShape,
} from "./plan/index.js";
export {
  loadToolPackage,
  ToolPackageError,
  type LoadToolPackageOptions,
  type ToolPackageContext,
  type ToolPackageModule,
} from "./tool-package.js";
export type {
  RunTelemetry,
  RunTelemetryOptions,
  RunTelemetrySource,
  SubagentErrorType,
  SubagentFinishedEvent,
  SubagentRefusedEvent,
  SubagentStartedEvent,
  SubagentTelemetryInfo,
  TelemetryEvent,
} from "./run-telemetry.js";
export {
  childNode,
  innermostNode,
  isLeafNode,
  NO_SCHEMA_CHECKS,
  nodeAt,
  readSchemaValue,
  type NumberCheck,
  type ReadResult,
  type SchemaChecks,
  type SchemaNode,
  type StringCheck,
} from "./schema-reader/schema-reader.js";
export { deepFreeze } from "./deep-freeze.js";
