import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Tracer,
} from "@opentelemetry/api";
import { MAX_TIMER_MS } from "@xzatoma/core";
import type { InboundMessage, MessageHandler, MessageOutcome, TopicRecords } from "@xzatoma/xzepr";
import { ledgerKeyOf, type EventLedger } from "./event-ledger.js";
import { createMessageJudge, type DeadLetterCode } from "./judge-message.js";
import type { PlanTask } from "./plan-task.js";
import type { ExecutionReport, PlanExecutor, TriggerRef } from "./plan-executor.js";
import {
  contextOfTraceparent,
  parseTraceparent,
  traceparentOfRun,
  usableTracestate,
} from "./trace-context.js";
import { deadLetterRecord, resultRecord, type Trigger } from "./wire.js";
import { keepText, redactRecord, type Redact } from "./redact-record.js";
import { watcherTopics, type WatcherConfig } from "@xzatoma/runtime/sections";
import type { WatcherLogger } from "./watcher-logger.js";
import type { EventDisposition, WatcherMetrics } from "./watcher-metrics.js";

/** What {@link createMessageHandler} needs. */
export interface MessageHandlerOptions {
  readonly config: WatcherConfig;
  readonly executor: PlanExecutor;
  readonly ledger: EventLedger;
  readonly logger: WatcherLogger;
  readonly metrics: WatcherMetrics;
  /** This instance's CloudEvents `source` (`xzatoma-watcher://host/pid`). */
  readonly instance: string;
  /** Parse, filter and match, but run nothing and publish nothing. */
  readonly dryRun?: boolean;
  /**
   * Applied to every record before it is published or stored in the ledger (result events,
   * dead letters, results published again): `redactSecrets` of `@xzatoma/safety`, as the
   * runtime passes it. Default: records as they are.
   */
  readonly redact?: Redact;
  /** Told about each result after it is built (XZepr reporting); failures are logged only. */
  readonly onResult?: (result: HandledResult) => Promise<void>;
  readonly now?: () => number;
  /** Waits `ms` unless `signal` aborts first (tests pass an instant one). */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** How long a run that was told to stop (timeout) may take to settle. Default 30 s. */
  readonly settleMs?: number;
  /**
   * Where each run's span (`process <topic>`) is recorded; default the global tracer
   * provider's (a no-op without an SDK).
   */
  readonly tracer?: Tracer;
}

/** One finished execution, as it was published. */
export interface HandledResult {
  readonly trigger: TriggerRef;
  readonly status: "completed" | "failed";
  readonly summary: string;
  readonly report: ExecutionReport;
  readonly durationMs: number;
}

const NOTHING: MessageOutcome = { publish: [] };

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error("The watcher is stopping.");
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The watcher's handling of one message, as the transport calls it: dead-letter what cannot
 * be read, skip what the filters turn away, run each event's plan once (by source and id),
 * and return the result event to publish before the offset is committed.
 */
export function createMessageHandler(options: MessageHandlerOptions): MessageHandler {
  const { config, executor, ledger, logger, metrics } = options;
  const topics = watcherTopics(config);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const settleMs = options.settleMs ?? 30_000;
  const tracer = options.tracer ?? trace.getTracer("xzatoma-watcher");
  const generic = config.watcher_type === "generic";
  const judge = createMessageJudge(config);
  const inFlight = new Set<string>();
  const redact = options.redact ?? keepText;
  const redacted = (publish: readonly TopicRecords[]): TopicRecords[] =>
    publish.map(({ topic, records }) => ({
      topic,
      records: records.map((record) => redactRecord(record, redact)),
    }));

  const done = (disposition: EventDisposition, outcome: MessageOutcome = NOTHING) => {
    metrics.handled(disposition);
    return outcome;
  };

  const deadLetter = (
    message: InboundMessage,
    reason: string,
    code: DeadLetterCode,
  ): MessageOutcome => {
    logger.warn("dead-lettered a message", {
      topic: message.topic,
      partition: message.partition,
      offset: message.offset,
      code,
      reason,
    });
    metrics.deadLettered(code);
    if (options.dryRun) return done("dead_lettered");
    return done("dead_lettered", {
      publish: redacted([
        { topic: topics.deadLetter, records: [deadLetterRecord(message, reason, code)] },
      ]),
    });
  };

  /** Runs the task with the configured timeout and retries; rejects only when stopping. */
  const execute = async (
    task: PlanTask,
    trigger: Trigger,
    traceparent: string,
    signal: AbortSignal,
  ): Promise<ExecutionReport> => {
    const timeoutMs = config.execution.execution_timeout_secs * 1000;
    const request = {
      prompt: task.prompt,
      ...(task.maxTurns !== undefined ? { maxTurns: task.maxTurns } : {}),
      allowDangerous: config.execution.allow_dangerous && task.wantsDangerous,
      title: `event ${trigger.id}: ${trigger.type}`,
      trigger: { id: trigger.id, source: trigger.source, type: trigger.type },
      traceparent,
    };
    for (let attempt = 0; ; attempt += 1) {
      // A listener added to a signal that has already aborted never runs: a run started now
      // would not be told to stop.
      if (signal.aborted) throw abortError(signal);
      const controller = new AbortController();
      const stop = () => controller.abort(abortError(signal));
      signal.addEventListener("abort", stop, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(
          new Error(`The run took longer than ${config.execution.execution_timeout_secs} s.`),
        );
      }, timeoutMs);
      // A run told to stop (timeout or shutdown) that does not settle within `settleMs` is
      // abandoned: the handler goes on without it, so its slot is free for the next message.
      let settleTimer: NodeJS.Timeout | undefined;
      let abandoned = false;
      const settled = new Promise<ExecutionReport>((resolve) => {
        controller.signal.addEventListener(
          "abort",
          () => {
            settleTimer = setTimeout(() => {
              abandoned = true;
              resolve({ stopReason: "timeout", text: "" });
            }, settleMs);
            settleTimer.unref();
          },
          { once: true },
        );
      });
      let report: ExecutionReport;
      try {
        const running = executor(request, controller.signal);
        report = await Promise.race([running, settled]);
      } catch (error) {
        report = {
          stopReason: "error",
          text: "",
          error: error instanceof Error ? error.message : String(error),
        };
      } finally {
        clearTimeout(timer);
        clearTimeout(settleTimer);
        signal.removeEventListener("abort", stop);
      }
      if (abandoned) {
        logger.warn("a run did not stop when told to and was abandoned", {
          event: trigger.id,
          reason: timedOut ? "timeout" : "stopping",
          settleMs,
        });
      }
      if (signal.aborted) throw abortError(signal);
      if (timedOut) {
        const limit = `watcher.execution.execution_timeout_secs (${config.execution.execution_timeout_secs} s)`;
        return {
          ...report,
          stopReason: "timeout",
          error: abandoned
            ? `The run took longer than ${limit}; it was told to stop, did not stop within ${settleMs / 1000} s, and was abandoned.`
            : `The run took longer than ${limit} and was stopped.`,
        };
      }
      if (report.stopReason !== "error" || attempt >= config.execution.max_retries) return report;
      // Doubling stops at the longest delay a timer keeps (a longer one would fire at once).
      const wait = Math.min(config.execution.retry_backoff_ms * 2 ** attempt, MAX_TIMER_MS);
      logger.warn("the run failed; retrying", {
        event: trigger.id,
        attempt: attempt + 1,
        retryInMs: wait,
        error: report.error,
      });
      await sleep(wait, signal);
    }
  };

  return async (message, signal) => {
    metrics.consumed();
    const at = { topic: message.topic, partition: message.partition, offset: message.offset };
    const judgement = judge(message);
    switch (judgement.verdict) {
      case "dead-letter":
        return deadLetter(message, judgement.reason, judgement.code);
      case "filter":
        logger.debug(generic ? "the plan does not match" : "filtered an event", {
          ...at,
          event: judgement.trigger.id,
          reason: judgement.reason,
        });
        return done("filtered");
      case "skip":
        logger.info("the event carries nothing to run", { ...at, event: judgement.trigger.id });
        return done("skipped");
      case "run":
        break;
    }
    const { trigger, task } = judgement;

    const key = ledgerKeyOf(trigger.source, trigger.id);
    const delivery = `${message.topic}/${message.partition}/${message.offset}`;
    const entry = ledger.lookup(key);
    if (entry !== undefined) {
      if (entry.delivery === delivery && entry.result !== undefined) {
        // This very message again: its result may not have reached the topic. Nothing runs,
        // so it is not counted as executed or failed a second time.
        logger.info("publishing the stored result again", { ...at, event: trigger.id });
        // Redacted again: an entry stored by an older version may hold a secret.
        const stored = JSON.parse(entry.result) as TopicRecords[];
        return done("republished", { publish: redacted(stored) });
      }
      logger.info("skipped an event already handled", { ...at, event: trigger.id });
      return done("duplicate");
    }
    if (inFlight.has(key)) {
      logger.info("skipped a copy of an event that is running", { ...at, event: trigger.id });
      return done("duplicate");
    }
    if (options.dryRun) {
      logger.info("would run the plan (dry run)", {
        ...at,
        event: trigger.id,
        plan: task.plan.name ?? "(prompt)",
      });
      return done("skipped");
    }

    inFlight.add(key);
    // The run continues the trace the event was sent in (a new one when it names none or an
    // invalid one): its span is a child of the sender's, and the agent's spans and the result
    // carry the run's context.
    const parent = parseTraceparent(trigger.traceparent);
    const tracestate = parent !== undefined ? usableTracestate(trigger.tracestate) : undefined;
    const attributes: Attributes = {
      "messaging.system": "kafka",
      "messaging.operation.type": "process",
      "messaging.operation.name": "process",
      "messaging.destination.name": message.topic,
      "messaging.destination.partition.id": String(message.partition),
      "messaging.consumer.group.name": config.kafka.group_id,
      "messaging.message.id": trigger.id,
      "cloudevents.event_id": trigger.id,
      "cloudevents.event_source": trigger.source,
      "cloudevents.event_type": trigger.type,
    };
    const offset = Number(message.offset);
    if (Number.isSafeInteger(offset)) attributes["messaging.kafka.offset"] = offset;
    if (message.key !== undefined) attributes["messaging.kafka.message.key"] = message.key;
    const span = tracer.startSpan(
      `process ${message.topic}`,
      { kind: SpanKind.CONSUMER, attributes },
      contextOfTraceparent(trigger.traceparent, trigger.tracestate) ?? ROOT_CONTEXT,
    );
    try {
      const traceparent = traceparentOfRun(span, parent);
      const started = now();
      logger.info("running the plan", {
        ...at,
        event: trigger.id,
        plan: task.plan.name ?? "(prompt)",
        traceparent,
      });
      const report = await execute(task, trigger, traceparent, signal);
      const durationMs = Math.max(0, now() - started);
      const status = report.stopReason === "completed" ? "completed" : "failed";
      const name = task.plan.name !== undefined ? `Plan '${task.plan.name}'` : "The event's prompt";
      const summary =
        status === "completed"
          ? `${name} completed${report.turns !== undefined ? ` in ${report.turns} turn${report.turns === 1 ? "" : "s"}` : ""}.`
          : `${name} failed: ${report.stopReason}${report.error ? `: ${report.error}` : ""}.`;
      const record = resultRecord({
        config,
        instance: options.instance,
        trigger,
        status,
        summary,
        report,
        durationMs,
        traceparent,
        ...(tracestate !== undefined ? { tracestate } : {}),
      });
      span.setAttribute("xzatoma.stop_reason", report.stopReason);
      if (status === "failed") {
        span.setStatus({ code: SpanStatusCode.ERROR, message: summary });
        span.setAttribute("error.type", report.stopReason);
      }
      const publish = redacted([{ topic: topics.output, records: [record] }]);
      ledger.record(key, {
        outcome: status,
        delivery,
        result: JSON.stringify(publish),
        ...(report.conversationId !== undefined ? { conversationId: report.conversationId } : {}),
      });
      metrics.executionFinished(durationMs / 1000, status);
      logger.info(status === "completed" ? "the plan completed" : "the plan failed", {
        ...at,
        event: trigger.id,
        stopReason: report.stopReason,
        durationMs,
      });
      if (options.onResult) {
        await options
          .onResult({ trigger, status, summary, report, durationMs })
          .catch((error: unknown) =>
            logger.warn("could not report the result", {
              event: trigger.id,
              error: error instanceof Error ? error.message : String(error),
            }),
          );
      }
      return done(status === "completed" ? "executed" : "failed", { publish });
    } catch (error) {
      // Stopping: the message is left for redelivery.
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
      throw error;
    } finally {
      span.end();
      inFlight.delete(key);
    }
  };
}
