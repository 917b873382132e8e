/**
 * Reports of finished runs to a side system (XZepr's API), sent in the background so a slow or
 * absent receiver never holds up the consumer: a bounded queue, one report at a time in order,
 * each failure tried again with doubling waits up to a bound, then given up and counted.
 */
import type { HandledResult } from "./message-handler.js";
import type { WatcherLogger } from "./watcher-logger.js";
import type { ReportDropReason, WatcherMetrics } from "./watcher-metrics.js";

/** What {@link createReportQueue} needs. */
export interface ReportQueueOptions {
  /** Sends one report; rejects when it did not arrive. `signal` aborts at the stop's deadline. */
  readonly send: (result: HandledResult, signal: AbortSignal) => Promise<void>;
  readonly logger: WatcherLogger;
  readonly metrics: Pick<WatcherMetrics, "reportDropped" | "reportRetried">;
  /** Tries after the first failure before a report is given up. Default 5. */
  readonly retries?: number;
  /** First wait before trying again, doubled after each failure. Default 1000 ms. */
  readonly initialDelayMs?: number;
  /** Longest wait between two tries. Default 30 000 ms. */
  readonly maxDelayMs?: number;
  /** Reports waiting at most; a report beyond it is given up at once (`queue_full`). Default 1000. */
  readonly maxQueued?: number;
  /**
   * Whether a failure will fail again however often it is tried (the receiver refused the
   * report itself). Default: an HTTP status 400-499 other than 408 and 429.
   */
  readonly isPermanent?: (error: unknown) => boolean;
}

/** A running {@link createReportQueue}. */
export interface ReportQueue {
  /** Queues a report; returns at once. After {@link close} began, the report is given up. */
  enqueue(result: HandledResult): void;
  /** Reports not yet sent, the one being sent included. */
  readonly pending: number;
  /**
   * Sends what is queued for up to `ms`, then gives up the rest (`shutdown`). Idempotent.
   */
  close(ms: number): Promise<void>;
}

const isClientError = (error: unknown): boolean => {
  const status = (error as { status?: unknown } | null)?.status;
  return (
    typeof status === "number" && status >= 400 && status < 500 && status !== 408 && status !== 429
  );
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Creates the queue; see the module's description. */
export function createReportQueue(options: ReportQueueOptions): ReportQueue {
  const { logger, metrics } = options;
  const retries = Math.max(0, options.retries ?? 5);
  const initialDelay = Math.max(0, options.initialDelayMs ?? 1000);
  const maxDelay = Math.max(initialDelay, options.maxDelayMs ?? 30_000);
  const maxQueued = Math.max(1, options.maxQueued ?? 1000);
  const isPermanent = options.isPermanent ?? isClientError;
  const queue: HandledResult[] = [];
  const deadline = new AbortController();
  let sending: Promise<void> | undefined;
  let closing = false;
  let closed: Promise<void> | undefined;

  const abandoned = new Promise<never>((_, reject) =>
    deadline.signal.addEventListener("abort", () => reject(new Error("The watcher is stopping.")), {
      once: true,
    }),
  );
  // Rejections of `abandoned` are seen through the race; this keeps it from being unhandled.
  abandoned.catch(() => undefined);
  const drop = (result: HandledResult, reason: ReportDropReason, error?: unknown) => {
    metrics.reportDropped(reason);
    logger.warn("gave up reporting a result to XZepr", {
      event: result.trigger.id,
      reason,
      ...(error !== undefined ? { error: messageOf(error) } : {}),
    });
  };

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      if (deadline.signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        deadline.signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      deadline.signal.addEventListener("abort", done, { once: true });
    });

  /** Sends one report with its retries; true when it arrived. */
  const deliver = async (result: HandledResult): Promise<void> => {
    for (let attempt = 0; ; attempt += 1) {
      if (deadline.signal.aborted) return drop(result, "shutdown");
      try {
        // A send that ignores the signal is left behind at the deadline all the same.
        await Promise.race([options.send(result, deadline.signal), abandoned]);
        if (attempt > 0)
          logger.info("reported a result to XZepr", {
            event: result.trigger.id,
            attempts: attempt + 1,
          });
        return;
      } catch (error) {
        if (deadline.signal.aborted) return drop(result, "shutdown", error);
        if (isPermanent(error)) return drop(result, "rejected", error);
        if (attempt >= retries) return drop(result, "retries_exhausted", error);
        const delay = Math.min(initialDelay * 2 ** attempt, maxDelay);
        metrics.reportRetried();
        logger.info("could not report a result to XZepr; trying again", {
          event: result.trigger.id,
          attempt: attempt + 1,
          retryInMs: delay,
          error: messageOf(error),
        });
        await wait(delay);
      }
    }
  };

  const pump = async () => {
    for (let next = queue[0]; next !== undefined; next = queue[0]) {
      await deliver(next);
      queue.shift();
    }
    sending = undefined;
  };

  return {
    enqueue(result) {
      if (closing && deadline.signal.aborted) return drop(result, "shutdown");
      if (queue.length >= maxQueued) return drop(result, "queue_full");
      queue.push(result);
      sending ??= pump();
    },
    get pending() {
      return queue.length;
    },
    close(ms) {
      closed ??= (async () => {
        closing = true;
        const timer = setTimeout(() => deadline.abort(), Math.max(0, ms));
        try {
          while (sending) await sending;
        } finally {
          clearTimeout(timer);
          deadline.abort();
        }
      })();
      return closed;
    },
  };
}
