import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { toTerminalSafe, toTerminalSafeJson, toTerminalSafeLine } from "@xzatoma/safety";
import { watcherTopics } from "@xzatoma/watcher";
import { parseResultEvent, type InboundMessage, type ResultEvent } from "@xzatoma/xzepr";
import {
  createToolTransport,
  ensureTopic,
  loadWatcherConfigFile,
  withBrokers,
} from "./watcher-config-file.js";

/**
 * A result as `xzatoma-watcher results` prints it without `--json`. Every field came off a
 * topic (an event's ids, the model's answer), so each is escaped for the terminal.
 */
export function formatResult(event: ResultEvent): string {
  const { data } = event;
  const safe = toTerminalSafeLine;
  const seconds = (data.durationMs / 1000).toFixed(1);
  const lines = [
    `${safe(data.status).padEnd(9)} ${safe(data.trigger.id)}  ${safe(data.trigger.type)} from ${safe(data.trigger.source)}  (${seconds} s, ${safe(data.stopReason)}, ${data.usage.totalTokens} tokens)`,
    `  ${safe(data.summary)}`,
  ];
  if (data.error) lines.push(`  error: ${safe(data.error.message)}`);
  if (data.answer) {
    const answer = data.answer.trim().split("\n");
    const shown = answer.slice(0, 12).map((line) => `  | ${safe(line)}`);
    if (answer.length > 12) shown.push(`  | … ${answer.length - 12} more lines (--json shows all)`);
    lines.push(...shown);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `xzatoma-watcher results --config FILE [--topic T] [--count N] [--timeout SECS] [--json]`:
 * reads the watcher's result topic (or `--topic`) from its beginning, committed records only,
 * and prints each result: a summary per result, or with `--json` the CloudEvent as one JSON
 * line. A record that is not a valid result is named on stderr and skipped. Stops after
 * `--count` results (exit 0), when `--timeout` runs out (exit 1 when fewer than `--count`
 * arrived, else 0), or on a signal (0).
 */
export async function readResults(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      config: { type: "string", short: "c" },
      topic: { type: "string" },
      brokers: { type: "string" },
      count: { type: "string", short: "n" },
      timeout: { type: "string" },
      json: { type: "boolean" },
      verbose: { type: "boolean", short: "v" },
    },
  });
  if (positionals.length > 0) {
    process.stderr.write(
      `error: results takes no arguments (got '${toTerminalSafeLine(positionals[0] ?? "")}')\n`,
    );
    return 2;
  }
  const count = values.count === undefined ? undefined : Number(values.count);
  if (count !== undefined && !(Number.isSafeInteger(count) && count > 0)) {
    process.stderr.write(
      `error: --count must be a positive whole number (got '${toTerminalSafeLine(values.count ?? "")}')\n`,
    );
    return 2;
  }
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0 && timeout <= 86_400)) {
    process.stderr.write(
      `error: --timeout must be a number of seconds above 0 and at most 86400 (got '${toTerminalSafeLine(values.timeout ?? "")}')\n`,
    );
    return 2;
  }
  const loaded = await loadWatcherConfigFile("results", values.config, env);
  if (!loaded) return 2;
  const watcher = withBrokers(loaded.watcher, values.brokers);
  const topic = values.topic ?? watcherTopics(watcher).output;
  const transport = createToolTransport(watcher, env, "results", values.verbose);

  let seen = 0;
  let fatal: Error | undefined;
  let finish: (why: "count" | "timeout" | "signal" | "fatal") => void = () => undefined;
  const finished = new Promise<"count" | "timeout" | "signal" | "fatal">((resolve) => {
    finish = resolve;
  });
  const onSignal = () => finish("signal");
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const timer =
    timeout === undefined ? undefined : setTimeout(() => finish("timeout"), timeout * 1000);
  const handle = (message: InboundMessage) => {
    if (count !== undefined && seen >= count) return;
    const parsed = parseResultEvent(message);
    if (parsed.kind !== "result") {
      process.stderr.write(
        `xzatoma-watcher: skipped ${toTerminalSafeLine(`${message.topic}/${message.partition}@${message.offset}`)}: ${toTerminalSafeLine(parsed.reason)}\n`,
      );
      return;
    }
    seen += 1;
    process.stdout.write(
      values.json ? `${toTerminalSafeJson(parsed.event)}\n` : formatResult(parsed.event),
    );
    if (count !== undefined && seen >= count) finish("count");
  };
  try {
    await ensureTopic(transport, watcher, topic);
    await transport.consume({
      topic,
      // A group of its own, so reading moves no other reader's offsets.
      groupId: `xzatoma-results-${randomUUID()}`,
      concurrency: 1,
      handler: async (message) => {
        handle(message);
        return { publish: [] };
      },
      onFatal(error) {
        fatal = error;
        finish("fatal");
      },
    });
    const why = await finished;
    if (why === "fatal") {
      process.stderr.write(
        `error: reading ${toTerminalSafeLine(topic)} failed: ${toTerminalSafe(fatal?.message ?? "unknown")}\n`,
      );
      return 1;
    }
    if (why === "timeout" && count !== undefined) {
      process.stderr.write(
        `error: ${seen} of ${count} results arrived on ${toTerminalSafeLine(topic)} within ${timeout} s\n`,
      );
      return 1;
    }
    return 0;
  } finally {
    if (timer) clearTimeout(timer);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await transport.stop(0);
  }
}
