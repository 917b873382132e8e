import { MAX_TIMER_MS, MAX_TIMER_SECONDS } from "@xzatoma/core";
import { describe, expect, it } from "vitest";
import { watcherConfigSchema, watcherTopics } from "./watcher-config.js";

/** The messages of the issues `section` raises, by key path. */
function problemsOf(section: unknown): Record<string, string> {
  const parsed = watcherConfigSchema.safeParse(section);
  if (parsed.success) return {};
  return Object.fromEntries(
    parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]),
  );
}

describe("the watcher's topics", () => {
  it("defaults the output and dead-letter topics after the input topic", () => {
    const config = watcherConfigSchema.parse({ kafka: { topic: "plans" } });
    expect(watcherTopics(config)).toEqual({
      input: "plans",
      output: "plans.results",
      deadLetter: "plans.dlq",
    });
  });

  it("refuses an output or dead-letter topic that is the input topic, naming both keys", () => {
    expect(problemsOf({ kafka: { topic: "plans", output_topic: "plans" } })).toEqual({
      "kafka.output_topic": expect.stringMatching(
        /^watcher\.kafka\.output_topic is the input topic watcher\.kafka\.topic \("plans"\): the watcher would consume its own results again/,
      ),
    });
    expect(problemsOf({ kafka: { output_topic: "xzepr.events" } })).toHaveProperty(
      ["kafka.output_topic"],
      expect.stringContaining('watcher.kafka.topic ("xzepr.events")'),
    );
    expect(problemsOf({ kafka: { topic: "plans", dead_letter_topic: "plans" } })).toEqual({
      "kafka.dead_letter_topic": expect.stringMatching(
        /^watcher\.kafka\.dead_letter_topic is the input topic watcher\.kafka\.topic \("plans"\): the watcher would consume its dead letters again/,
      ),
    });
  });

  it("refuses results and dead letters in one topic, set or by default", () => {
    const same =
      /watcher\.kafka\.dead_letter_topic and watcher\.kafka\.output_topic are the same topic \("out"\)/;
    expect(problemsOf({ kafka: { output_topic: "out", dead_letter_topic: "out" } })).toEqual({
      "kafka.dead_letter_topic": expect.stringMatching(same),
    });
    // An explicit value that is the other's default.
    expect(problemsOf({ kafka: { topic: "t", dead_letter_topic: "t.results" } })).toEqual({
      "kafka.dead_letter_topic": expect.stringContaining('same topic ("t.results")'),
    });
    expect(problemsOf({ kafka: { topic: "t", output_topic: "t.dlq" } })).toEqual({
      "kafka.output_topic": expect.stringContaining('same topic ("t.dlq")'),
    });
  });

  it("accepts three different topics", () => {
    expect(
      problemsOf({ kafka: { topic: "in", output_topic: "out", dead_letter_topic: "dlq" } }),
    ).toEqual({});
  });
});

describe("the watcher's durations", () => {
  it("caps every duration that ends in a timer at the longest delay a timer keeps", () => {
    expect(MAX_TIMER_MS).toBe(2 ** 31 - 1);
    const limits = watcherConfigSchema.parse({
      kafka: { session_timeout_ms: MAX_TIMER_MS },
      execution: {
        execution_timeout_secs: MAX_TIMER_SECONDS,
        retry_backoff_ms: MAX_TIMER_MS,
        shutdown_grace_secs: MAX_TIMER_SECONDS,
      },
    });
    expect(limits.execution.execution_timeout_secs * 1000).toBeLessThanOrEqual(MAX_TIMER_MS);
    expect(limits.execution.shutdown_grace_secs * 1000).toBeLessThanOrEqual(MAX_TIMER_MS);

    expect(
      problemsOf({
        kafka: { session_timeout_ms: MAX_TIMER_MS + 1 },
        execution: {
          execution_timeout_secs: MAX_TIMER_SECONDS + 1,
          retry_backoff_ms: MAX_TIMER_MS + 1,
          shutdown_grace_secs: 3_000_000,
        },
      }),
    ).toEqual({
      "kafka.session_timeout_ms": expect.stringMatching(/^at most 2147483647 milliseconds/),
      "execution.execution_timeout_secs": expect.stringMatching(/^at most 2147483 seconds/),
      "execution.retry_backoff_ms": expect.stringMatching(/^at most 2147483647 milliseconds/),
      "execution.shutdown_grace_secs": expect.stringMatching(/^at most 2147483 seconds/),
    });
  });

  it("keeps 0 for the backoff and the grace, and at least 1 for the timeout", () => {
    expect(problemsOf({ execution: { retry_backoff_ms: 0, shutdown_grace_secs: 0 } })).toEqual({});
    expect(Object.keys(problemsOf({ execution: { execution_timeout_secs: 0 } }))).toEqual([
      "execution.execution_timeout_secs",
    ]);
  });
});
