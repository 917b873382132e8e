import { parseArgs } from "node:util";
import { toTerminalSafe, toTerminalSafeJson, toTerminalSafeLine } from "@xzatoma/safety";
import { DEAD_LETTER_CODE_HEADER, DEAD_LETTER_CODES, watcherTopics } from "@xzatoma/watcher";
import {
  readDeadLetterHeaders,
  type DeadLetterInfo,
  type InboundMessage,
  type OutboundRecord,
} from "@xzatoma/xzepr";
import { createToolTransport, loadWatcherConfigFile, withBrokers } from "./watcher-config-file.js";

/** The header a dead letter carries when its value was cut. */
const ORIGINAL_BYTES_HEADER = "x-xzatoma-dlq-original-bytes";

/** A record of the dead-letter topic with what its headers say. */
export interface DeadLetter {
  /** Where it sits in the dead-letter topic: `PARTITION:OFFSET`. */
  readonly ref: string;
  readonly message: InboundMessage;
  /** Undefined when the record is not a dead letter the watcher wrote. */
  readonly info: DeadLetterInfo | undefined;
  /** Its reason code (`too_large`, `no_plan`, ...), when it carries one. */
  readonly code: string | undefined;
  /** Its value was cut at 64 KiB: it cannot be replayed as it was. */
  readonly cut: boolean;
}

export function toDeadLetter(message: InboundMessage): DeadLetter {
  return {
    ref: `${message.partition}:${message.offset}`,
    message,
    info: readDeadLetterHeaders(message.headers),
    code: message.headers[DEAD_LETTER_CODE_HEADER],
    cut: message.headers[ORIGINAL_BYTES_HEADER] !== undefined,
  };
}

/** What a dead letter's value looks like on a terminal: UTF-8 text, or its size. */
function valueText(message: InboundMessage): string {
  if (message.value === null) return "(no value)";
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(message.value);
  } catch {
    return `(${message.value.byteLength} bytes, not UTF-8 text)`;
  }
}

function jsonOf(letter: DeadLetter, withValue: boolean) {
  return {
    ref: letter.ref,
    key: letter.message.key ?? null,
    code: letter.code ?? null,
    reason: letter.info?.reason ?? null,
    from: letter.info
      ? { topic: letter.info.topic, partition: letter.info.partition, offset: letter.info.offset }
      : null,
    at: letter.info?.at ?? null,
    tombstone: letter.info?.tombstone ?? false,
    cut: letter.cut,
    ...(withValue ? { headers: letter.message.headers, value: valueText(letter.message) } : {}),
  };
}

function formatLine(letter: DeadLetter): string {
  const safe = toTerminalSafeLine;
  const { info } = letter;
  const from = info ? `${safe(info.topic)}/${info.partition}@${safe(info.offset)}` : "?";
  return `${safe(letter.ref).padEnd(8)} ${safe(letter.code ?? "-").padEnd(13)} ${safe(letter.message.key ?? "-")}  from ${from}  ${safe(info?.at ?? "")}\n  ${safe(info?.reason ?? "not a dead letter of the watcher (no x-xzatoma-dlq-reason)")}\n`;
}

function formatFull(letter: DeadLetter): string {
  const safe = toTerminalSafeLine;
  const headers = Object.entries(letter.message.headers)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `  ${safe(name)}: ${safe(value)}`);
  return `${formatLine(letter)}key: ${safe(letter.message.key ?? "(none)")}\nheaders:\n${headers.join("\n")}\nvalue:\n${toTerminalSafe(valueText(letter.message))}\n\n`;
}

/** The record that replays a dead letter: its key, value and headers without `x-xzatoma-dlq-*`. */
export function replayRecord(letter: DeadLetter): OutboundRecord {
  const headers = Object.fromEntries(
    Object.entries(letter.message.headers).filter(
      ([name]) => !name.toLowerCase().startsWith("x-xzatoma-dlq-"),
    ),
  );
  return {
    ...(letter.message.key !== undefined ? { key: letter.message.key } : {}),
    value: letter.message.value ?? new Uint8Array(0),
    headers,
  };
}

/** Whether `ref` names this dead letter: its place `PARTITION:OFFSET`, or its key. */
const matches = (letter: DeadLetter, ref: string) =>
  letter.ref === ref || letter.message.key === ref;

/**
 * `xzatoma-watcher dlq list|show|replay --config FILE [REF...] [--all] [--code CODE]`: the
 * dead-letter topic, read from its beginning (committed records, in a group of its own that
 * commits nothing): `list` a line per dead letter with its reason, `show` one in full,
 * `replay` publishes each chosen one again to the topic it was consumed from (its
 * `x-xzatoma-dlq-topic`), with its key, value and original headers. A cut value or a
 * tombstone is not replayed. Exit 0 done, 1 a REF not found or not replayable, 2 usage.
 */
export async function deadLetters(
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
      all: { type: "boolean" },
      code: { type: "string" },
      "dry-run": { type: "boolean" },
      limit: { type: "string", short: "n" },
      json: { type: "boolean" },
      verbose: { type: "boolean", short: "v" },
    },
  });
  const [action, ...refs] = positionals;
  if (action !== "list" && action !== "show" && action !== "replay") {
    process.stderr.write(
      `error: dlq needs list, show or replay${action === undefined ? "" : ` (got '${toTerminalSafeLine(action)}')`}: xzatoma-watcher dlq list|show|replay --config FILE\n`,
    );
    return 2;
  }
  if (
    values.code !== undefined &&
    !(DEAD_LETTER_CODES as readonly string[]).includes(values.code)
  ) {
    // terminal-safe: the codes are XZatoma's own constants; the value goes through the escaper.
    process.stderr.write(
      `error: --code must be one of ${DEAD_LETTER_CODES.join(", ")} (got '${toTerminalSafeLine(values.code)}')\n`,
    );
    return 2;
  }
  if (action === "list" && refs.length > 0) {
    process.stderr.write("error: dlq list takes no REF (use dlq show REF)\n");
    return 2;
  }
  if (action === "show" && refs.length === 0) {
    process.stderr.write("error: dlq show needs at least one REF (PARTITION:OFFSET or a key)\n");
    return 2;
  }
  const choosesAll = values.all === true || values.code !== undefined;
  if (action === "replay" && refs.length === 0 && !choosesAll) {
    process.stderr.write(
      "error: dlq replay needs REF... (PARTITION:OFFSET or a key), --all or --code CODE\n",
    );
    return 2;
  }
  if (action === "replay" && refs.length > 0 && values.all === true) {
    process.stderr.write("error: dlq replay takes REF... or --all, not both\n");
    return 2;
  }
  const limit = values.limit === undefined ? 10_000 : Number(values.limit);
  if (!(Number.isSafeInteger(limit) && limit > 0)) {
    process.stderr.write(
      `error: --limit must be a positive whole number (got '${toTerminalSafeLine(values.limit ?? "")}')\n`,
    );
    return 2;
  }
  const loaded = await loadWatcherConfigFile(`dlq ${action}`, values.config, env);
  if (!loaded) return 2;
  const watcher = withBrokers(loaded.watcher, values.brokers);
  const topics = watcherTopics(watcher);
  const topic = values.topic ?? topics.deadLetter;
  const transport = createToolTransport(watcher, env, "dlq", values.verbose);
  try {
    if (!transport.readTopic) throw new Error("This transport cannot read a topic.");
    const read = (await transport.readTopic(topic, { limit })).map(toDeadLetter);
    const ofCode = read.filter(
      (letter) => values.code === undefined || letter.code === values.code,
    );

    if (action === "list") {
      for (const letter of ofCode) {
        process.stdout.write(
          values.json ? `${toTerminalSafeJson(jsonOf(letter, false))}\n` : formatLine(letter),
        );
      }
      if (!values.json) {
        process.stderr.write(
          `${ofCode.length} dead letter${ofCode.length === 1 ? "" : "s"} on ${toTerminalSafeLine(topic)}\n`,
        );
      }
      return 0;
    }

    // show and replay: the chosen ones, and every REF that named none.
    const missing = refs.filter((ref) => !read.some((letter) => matches(letter, ref)));
    for (const ref of missing) {
      process.stderr.write(
        `error: no dead letter ${toTerminalSafeLine(ref)} on ${toTerminalSafeLine(topic)} (a PARTITION:OFFSET or a key that dlq list shows)\n`,
      );
    }
    const chosen =
      refs.length > 0
        ? ofCode.filter((letter) => refs.some((ref) => matches(letter, ref)))
        : ofCode;

    if (action === "show") {
      for (const letter of chosen) {
        process.stdout.write(
          values.json ? `${toTerminalSafeJson(jsonOf(letter, true))}\n` : formatFull(letter),
        );
      }
      return missing.length > 0 ? 1 : 0;
    }

    let refused = 0;
    const byTopic = new Map<string, { letter: DeadLetter; record: OutboundRecord }[]>();
    for (const letter of chosen) {
      const why =
        letter.info === undefined
          ? "it is not a dead letter of the watcher (no x-xzatoma-dlq-* headers)"
          : letter.info.tombstone
            ? "the original was a tombstone (no value)"
            : letter.cut
              ? `its value was cut at 64 KiB (the original had ${letter.message.headers[ORIGINAL_BYTES_HEADER]} bytes)`
              : undefined;
      if (why !== undefined || letter.info === undefined) {
        refused += 1;
        process.stderr.write(
          `error: not replaying ${toTerminalSafeLine(letter.ref)}: ${toTerminalSafeLine(why ?? "")}\n`,
        );
        continue;
      }
      const target = values.topic === undefined ? letter.info.topic : topics.input;
      let list = byTopic.get(target);
      if (!list) byTopic.set(target, (list = []));
      list.push({ letter, record: replayRecord(letter) });
    }
    for (const [target, entries] of byTopic) {
      if (!values["dry-run"]) {
        await transport.publish({ topic: target, records: entries.map((entry) => entry.record) });
      }
      for (const { letter, record } of entries) {
        process.stdout.write(
          values.json
            ? `${toTerminalSafeJson({ ref: letter.ref, key: record.key ?? null, topic: target, published: !values["dry-run"] })}\n`
            : `${values["dry-run"] ? "would replay" : "replayed"} ${toTerminalSafeLine(letter.ref)} to ${toTerminalSafeLine(target)}${record.key !== undefined ? ` (key ${toTerminalSafeLine(record.key)})` : ""}\n`,
        );
      }
    }
    return missing.length > 0 || refused > 0 ? 1 : 0;
  } finally {
    await transport.stop(0);
  }
}
