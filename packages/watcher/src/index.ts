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
  ledgerKeyPatternForId,
  parseLedgerKey,
  type EventLedger,
  type LedgerEntry,
} from "./event-ledger.js";
export type {
  ExecutionReport,
  ExecutionRequest,
  PlanExecutor,
  TriggerRef,
} from "./plan-executor.js";
export {
  createMessageJudge,
  type DeadLetterCode,
  type Judgement,
  type MessageJudge,
} from "./judge-message.js";
export {
  createMessageHandler,
  type HandledResult,
  type MessageHandlerOptions,
} from "./message-handler.js";
export { createReportQueue, type ReportQueue, type ReportQueueOptions } from "./report-queue.js";
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
  DEAD_LETTER_CODES,
  EVENT_DISPOSITIONS,
  EXECUTION_DURATION_BUCKETS,
  REPORT_DROP_REASONS,
  WATCHER_METRICS,
  type ConsumerIdentity,
  type EventDisposition,
  type ReportDropReason,
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
export { DEAD_LETTER_CODE_HEADER, triggerOf, type Trigger, type TriggerPlan } from "./wire.js";
