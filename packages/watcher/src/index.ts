export {
  createEventFilter,
  EventFilterError,
  type EventFilter,
  type EventFilterOptions,
  type FilterableEvent,
} from "./event-filter.js";
export {
  createGenericMatch,
  type GenericMatch,
  type GenericMatchOptions,
  type MatchablePlan,
} from "./generic-match.js";
export { extractCloudEventPlan, extractXzeprPlan } from "./extract-plan.js";
export { planTaskOf, promptTaskOf, type PlanTask } from "./plan-task.js";
export {
  createMemoryLedger,
  historyLedger,
  ledgerKeyOf,
  type EventLedger,
  type LedgerEntry,
} from "./event-ledger.js";
export type {
  ExecutionReport,
  ExecutionRequest,
  PlanExecutor,
  TriggerRef,
} from "./plan-executor.js";
export { createMessageJudge, type Judgement, type MessageJudge } from "./judge-message.js";
export {
  createMessageHandler,
  type HandledResult,
  type MessageHandlerOptions,
} from "./message-handler.js";
export {
  createWatcherService,
  type WatcherService,
  type WatcherServiceOptions,
  type WatcherStatus,
} from "./watcher-service.js";
export {
  createWatcherLogger,
  LOG_LEVELS,
  type LogFields,
  type LogLevel,
  type WatcherLogger,
  type WatcherLoggerOptions,
} from "./watcher-logger.js";
export {
  createWatcherMetrics,
  EXECUTION_DURATION_BUCKETS,
  type EventDisposition,
  type WatcherCounts,
  type WatcherMetrics,
} from "./watcher-metrics.js";
// The configuration slice, as `@xzatoma/watcher/config` exports it alone.
export * from "./config.js";
export {
  contextOfTraceparent,
  formatTraceparent,
  parseTraceparent,
  type TraceParent,
} from "./trace-context.js";
export { triggerOf, type Trigger, type TriggerPlan } from "./wire.js";
