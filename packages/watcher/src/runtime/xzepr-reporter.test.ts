import { readFileSync } from "node:fs";
import { startScriptedXzepr, type ScriptedXzepr } from "@xzatoma/scripted-servers/xzepr";
import { createReportQueue, createWatcherLogger, type ReportDropReason } from "../index.js";
import { xzeprConfigSchema } from "@xzatoma/runtime/sections";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createXzeprReporter, watcherPackageVersion } from "./xzepr-reporter.js";

let xzepr: ScriptedXzepr | undefined;

afterEach(async () => {
  await xzepr?.close();
  xzepr = undefined;
});

const result = {
  trigger: { id: "e1", source: "ci", type: "build.success" },
  status: "completed" as const,
  summary: "The event's prompt completed.",
  report: { stopReason: "completed", text: "ok" },
  durationMs: 12,
};

async function reportedRelease(release?: string): Promise<unknown> {
  xzepr = await startScriptedXzepr({ token: "xz-token" });
  const config = xzeprConfigSchema.parse({ api_url: xzepr.url, report_results: true });
  const report = createXzeprReporter(config, { baseUrl: xzepr.url, token: "xz-token" }, release);
  await report(result);
  const [event] = [...xzepr.events.values()];
  return (event as { release?: unknown } | undefined)?.release;
}

describe("createXzeprReporter", () => {
  it("posts results with the watcher package's version as the release when none is given", async () => {
    const manifest = JSON.parse(
      readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
    ) as { version: string };
    expect(watcherPackageVersion()).toBe(manifest.version);
    expect(await reportedRelease()).toBe(manifest.version);
  });

  it("posts the front end's release when given", async () => {
    expect(await reportedRelease("9.9.9")).toBe("9.9.9");
  });
});

describe("reporting to an XZepr that is down", () => {
  function queueFor(server: ScriptedXzepr, retries: number) {
    const config = xzeprConfigSchema.parse({ api_url: server.url, report_results: true });
    const report = createXzeprReporter(config, { baseUrl: server.url, timeoutMs: 5000 });
    const dropped: ReportDropReason[] = [];
    let retried = 0;
    const queue = createReportQueue({
      send: report,
      logger: createWatcherLogger({ level: "error", json: true, write: () => undefined }),
      metrics: {
        reportDropped: (reason) => dropped.push(reason),
        reportRetried: () => (retried += 1),
      },
      retries,
      initialDelayMs: 10,
      maxDelayMs: 40,
    });
    return { queue, dropped, retried: () => retried };
  }

  it("tries again with backoff until XZepr answers, and the result arrives once", async () => {
    xzepr = await startScriptedXzepr();
    // Answers 503 three times (the receiver lookup included), then works again.
    xzepr.failNext(3, { status: 503 });
    const { queue, dropped, retried } = queueFor(xzepr, 5);
    queue.enqueue(result);
    await queue.close(60_000);
    expect(retried()).toBe(3);
    expect(dropped).toEqual([]);
    const events = [...xzepr.events.values()];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ description: result.summary, success: true });
  });

  it("gives up after its retries and counts the report as dropped, when XZepr stays down", async () => {
    xzepr = await startScriptedXzepr();
    xzepr.failNext(100, { status: 502 });
    const { queue, dropped, retried } = queueFor(xzepr, 2);
    queue.enqueue(result);
    await queue.close(60_000);
    expect(retried()).toBe(2);
    expect(dropped).toEqual(["retries_exhausted"]);
    expect(xzepr.events.size).toBe(0);
    expect(xzepr.requests).toHaveLength(3);
  });

  it("finds or creates its receiver again when XZepr lost it (an XZepr restarted without its data)", async () => {
    xzepr = await startScriptedXzepr();
    const { queue, dropped } = queueFor(xzepr, 2);
    queue.enqueue(result);
    await vi.waitFor(() => expect(xzepr?.events.size).toBe(1), { timeout: 30_000 });
    xzepr.receivers.clear();
    queue.enqueue(result);
    await queue.close(60_000);
    expect(dropped).toEqual([]);
    expect(xzepr.events.size).toBe(2);
    expect(xzepr.receivers.size).toBe(1);
  });
});
