import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { watcherTopics } from "@xzatoma/watcher";
import type { OutboundRecord } from "@xzatoma/xzepr";
import {
  createToolTransport,
  ensureTopic,
  loadWatcherConfigFile,
  withBrokers,
} from "./watcher-config-file.js";
import { toTerminalSafe, toTerminalSafeJson, toTerminalSafeLine } from "@xzatoma/safety";

/** The message key of an event file: its `id` when it is a JSON object that has one. */
export function keyOf(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const id = (value as { id?: unknown }).id;
      if (typeof id === "string" && id !== "") return id;
    }
  } catch {
    // Not JSON: published without a key.
  }
  return undefined;
}

async function readInput(file: string): Promise<string> {
  if (file !== "-") return readFile(file, "utf8");
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

/**
 * `xzatoma-watcher publish --config FILE [--topic T] [--brokers LIST] [--key K] EVENT...`:
 * publishes each event file (`-` for standard input) as one message, as it is, to the
 * watcher's input topic (or `--topic`), keyed by `--key` or the event's `id`. Every file is
 * read before anything is sent, so an unreadable one sends nothing.
 */
export async function publishEvents(
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
      key: { type: "string" },
      json: { type: "boolean" },
      verbose: { type: "boolean", short: "v" },
    },
  });
  if (positionals.length === 0) {
    process.stderr.write("error: publish needs at least one EVENT file (or - for stdin)\n");
    return 2;
  }
  const loaded = await loadWatcherConfigFile("publish", values.config, env);
  if (!loaded) return 2;
  const watcher = withBrokers(loaded.watcher, values.brokers);
  const topic = values.topic ?? watcherTopics(watcher).input;
  const records: { file: string; record: OutboundRecord }[] = [];
  for (const file of positionals) {
    let text: string;
    try {
      text = await readInput(file);
    } catch (error) {
      process.stderr.write(
        `error: cannot read '${toTerminalSafeLine(file)}': ${toTerminalSafe((error as Error).message)}\n`,
      );
      return 1;
    }
    const key = values.key ?? keyOf(text);
    records.push({ file, record: { value: text, ...(key !== undefined ? { key } : {}) } });
  }
  const transport = createToolTransport(watcher, env, "publish", values.verbose);
  try {
    await ensureTopic(transport, watcher, topic);
    await transport.publish({ topic, records: records.map((entry) => entry.record) });
  } finally {
    await transport.stop(0);
  }
  for (const { file, record } of records) {
    process.stdout.write(
      values.json
        ? `${toTerminalSafeJson({ file, topic, key: record.key ?? null })}\n`
        : `published ${toTerminalSafeLine(file)} to ${toTerminalSafeLine(topic)}${record.key !== undefined ? ` (key ${toTerminalSafeLine(record.key)})` : ""}\n`,
    );
  }
  return 0;
}
