// Nothing the watcher publishes, stores in its ledger or logs holds a secret when it is
// given the redactor: result events, dead letters, results published again, log lines.
import { readFileSync } from "node:fs";
import type { InboundMessage, MessageOutcome } from "@xzatoma/xzepr";
import { describe, expect, it } from "vitest";
import { createMemoryLedger } from "./event-ledger.js";
import { createMessageHandler } from "./message-handler.js";
import type { PlanExecutor } from "./plan-executor.js";
import { redactRecord } from "./redact-record.js";
import { watcherConfigSchema } from "@xzatoma/runtime/sections";
import { createWatcherLogger } from "./watcher-logger.js";
import { createWatcherMetrics } from "./watcher-metrics.js";

const CANARY = "canary-Lp6sV3nQ8dF1";
const redact = (text: string) => text.split(CANARY).join("[REDACTED]");
const BUILD = readFileSync(
  new URL("../../xzepr/src/__fixtures__/build_success_event.json", import.meta.url),
  "utf8",
);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function messageOf(value: string | Uint8Array, offset = 0): InboundMessage {
  return {
    topic: "xzepr.events",
    partition: 0,
    offset: String(offset),
    key: undefined,
    value: typeof value === "string" ? encoder.encode(value) : value,
    headers: {},
    timestamp: 0,
  };
}

function handlerOf(executor: PlanExecutor) {
  const logs: string[] = [];
  const ledger = createMemoryLedger();
  const handler = createMessageHandler({
    config: watcherConfigSchema.parse({ execution: { max_retries: 0 } }),
    executor,
    ledger,
    logger: createWatcherLogger({
      level: "debug",
      json: true,
      write: (line) => logs.push(line),
      redact,
    }),
    metrics: createWatcherMetrics(),
    instance: "xzatoma-watcher://test/1",
    redact,
  });
  return { handler, logs };
}

const published = (outcome: MessageOutcome) =>
  outcome.publish.flatMap(({ records }) =>
    records.map((record) => ({
      value: typeof record.value === "string" ? record.value : decoder.decode(record.value),
      headers: record.headers ?? {},
    })),
  );

describe("the watcher with a redactor", () => {
  it("publishes a result whose answer and error are redacted, still JSON, and republishes it redacted", async () => {
    const { handler, logs } = handlerOf(async () => ({
      stopReason: "error",
      text: `The config holds ${CANARY}.`,
      error: `psql: password ${CANARY} rejected`,
    }));
    const message = messageOf(BUILD, 3);
    const first = await handler(message, new AbortController().signal);
    const [result] = published(first);
    expect(result?.value).not.toContain(CANARY);
    const event = JSON.parse(result?.value ?? "") as { data: Record<string, unknown> };
    expect(JSON.stringify(event.data)).toContain("[REDACTED]");
    // The same message again: the stored result is published again, as redacted.
    const again = await handler(message, new AbortController().signal);
    expect(published(again)[0]?.value).toBe(result?.value);
    expect(logs.join("")).not.toContain(CANARY);
  });

  it("dead-letters a message with its secrets redacted, in the value and the headers", async () => {
    const { handler, logs } = handlerOf(async () => ({ stopReason: "completed", text: "" }));
    const outcome = await handler(
      messageOf(`{"specversion": "1.0", "token": "${CANARY}"`),
      new AbortController().signal,
    );
    const [letter] = published(outcome);
    expect(letter).toBeDefined();
    expect(letter?.value).toContain("[REDACTED]");
    expect(JSON.stringify(letter)).not.toContain(CANARY);
    expect(logs.join("")).not.toContain(CANARY);
  });
});

describe("redactRecord", () => {
  it("keeps a value that is not UTF-8 text as it is", () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x00, 0x41]);
    expect(redactRecord({ value: bytes }, redact).value).toBe(bytes);
  });

  it("redacts JSON string by string, so the value stays JSON", () => {
    const value = JSON.stringify({ answer: `a "quoted" ${CANARY}`, turns: 2 });
    expect(JSON.parse(redactRecord({ value }, redact).value as string)).toEqual({
      answer: 'a "quoted" [REDACTED]',
      turns: 2,
    });
  });
});
