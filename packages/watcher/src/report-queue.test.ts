import { describe, expect, it } from "vitest";
import type { HandledResult } from "./message-handler.js";
import { createReportQueue } from "./report-queue.js";
import { createWatcherLogger } from "./watcher-logger.js";
import type { ReportDropReason } from "./watcher-metrics.js";

const result = (id: string): HandledResult => ({
  trigger: { id, source: "ci", type: "build.success" },
  status: "completed",
  summary: "done",
  report: { stopReason: "completed", text: "ok" },
  durationMs: 1,
});

function harness(send: (result: HandledResult) => Promise<void>, extra = {}) {
  const dropped: ReportDropReason[] = [];
  let retried = 0;
  const logs: string[] = [];
  const queue = createReportQueue({
    send,
    logger: createWatcherLogger({ level: "debug", json: true, write: (line) => logs.push(line) }),
    metrics: {
      reportDropped: (reason) => dropped.push(reason),
      reportRetried: () => (retried += 1),
    },
    initialDelayMs: 1,
    maxDelayMs: 4,
    ...extra,
  });
  return { queue, dropped, retried: () => retried, logs };
}

const httpError = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });

describe("the report queue", () => {
  it("tries a failing report again until it arrives, in order, without holding up enqueue", async () => {
    const sent: string[] = [];
    let failures = 3;
    const { queue, dropped, retried } = harness(async (report) => {
      if (failures > 0) {
        failures -= 1;
        throw httpError(503);
      }
      sent.push(report.trigger.id);
    });
    queue.enqueue(result("a"));
    queue.enqueue(result("b"));
    expect(queue.pending).toBe(2);
    await queue.close(60_000);
    expect(sent).toEqual(["a", "b"]);
    expect(retried()).toBe(3);
    expect(dropped).toEqual([]);
  });

  it("gives a report up after its retries and counts it; one XZepr refused is not tried again", async () => {
    let calls = 0;
    const { queue, dropped, logs } = harness(
      async (report) => {
        calls += 1;
        throw report.trigger.id === "bad" ? httpError(400) : new Error("connect ECONNREFUSED");
      },
      { retries: 2 },
    );
    queue.enqueue(result("down"));
    queue.enqueue(result("bad"));
    await queue.close(60_000);
    expect(dropped).toEqual(["retries_exhausted", "rejected"]);
    expect(calls).toBe(3 + 1);
    expect(logs.join("\n")).toContain("gave up reporting a result to XZepr");
  });

  it("drops what does not fit, and what is left at the stop's deadline", async () => {
    const { queue, dropped } = harness(() => new Promise<void>(() => undefined), { maxQueued: 2 });
    queue.enqueue(result("1"));
    queue.enqueue(result("2"));
    queue.enqueue(result("3"));
    expect(dropped).toEqual(["queue_full"]);
    await queue.close(50);
    expect(dropped).toEqual(["queue_full", "shutdown", "shutdown"]);
  });
});
