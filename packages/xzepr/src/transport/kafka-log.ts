/**
 * kafkajs's log lines, routed to the caller's logger instead of kafkajs's console output.
 */
import kafkajs from "kafkajs";
import type { logCreator } from "kafkajs";

const { logLevel } = kafkajs;

/** Severity of a log line. */
export type KafkaLogLevel = "error" | "warn" | "info" | "debug";

/**
 * Receives the Kafka client's and the transport's log lines. `fields` carries kafkajs's
 * structured fields (group id, broker, error, retry count, ...) and `namespace`, the part of
 * the client that logged (`Consumer`, `Runner`, `Transport`, ...). Must not throw.
 */
export type KafkaLogger = (
  level: KafkaLogLevel,
  message: string,
  fields: Readonly<Record<string, unknown>>,
) => void;

const RANK: Record<KafkaLogLevel, number> = { error: 1, warn: 2, info: 4, debug: 5 };

/** kafkajs's numeric level for ours. */
export function toKafkaJsLevel(level: KafkaLogLevel): number {
  return {
    error: logLevel.ERROR,
    warn: logLevel.WARN,
    info: logLevel.INFO,
    debug: logLevel.DEBUG,
  }[level];
}

function fromKafkaJsLevel(level: number): KafkaLogLevel {
  if (level <= logLevel.ERROR) return "error";
  if (level <= logLevel.WARN) return "warn";
  if (level <= logLevel.INFO) return "info";
  return "debug";
}

/** Writes each line to stderr: what a caller that gave no logger sees (errors only). */
export const stderrKafkaLogger: KafkaLogger = (level, message, fields) => {
  const error = fields.error;
  const detail = typeof error === "string" && !message.includes(error) ? `: ${error}` : "";
  const namespace = typeof fields.namespace === "string" ? ` [${fields.namespace}]` : "";
  process.stderr.write(`kafka ${level}${namespace} ${message}${detail}\n`);
};

/**
 * A filtered logger: lines below `level` are dropped, and a throwing logger is ignored (a log
 * line must never break the consumer).
 */
export function createLevelLogger(logger: KafkaLogger, level: KafkaLogLevel): KafkaLogger {
  const threshold = RANK[level];
  return (lineLevel, message, fields) => {
    if (RANK[lineLevel] > threshold) return;
    try {
      logger(lineLevel, message, fields);
    } catch {
      // ignored on purpose
    }
  };
}

/**
 * What a consumer group does in the ordinary course of things, which kafkajs logs as a warning
 * or an error: a rebalance (a member joined, left or restarted), re-joining after it, the
 * coordinator having forgotten a member whose session ran out (it joins again).
 */
const ROUTINE_GROUP_CHANGE =
  /rebalanc|re-?join|not aware of this member|REBALANCE_IN_PROGRESS|UNKNOWN_MEMBER_ID/i;

/**
 * The level a kafkajs line is passed on at: kafkajs's own, except that a routine change of
 * the group's membership is `info`, so an alert on warnings and errors does not fire on every
 * deploy or scale-out.
 */
export function kafkaJsLineLevel(
  level: KafkaLogLevel,
  message: string,
  fields: Readonly<Record<string, unknown>>,
): KafkaLogLevel {
  if (level !== "error" && level !== "warn") return level;
  const error = fields["error"];
  const said = `${message} ${typeof error === "string" ? error : error instanceof Error ? error.message : ""} ${typeof fields["type"] === "string" ? fields["type"] : ""}`;
  return ROUTINE_GROUP_CHANGE.test(said) ? "info" : level;
}

/** kafkajs's `logCreator` that forwards every line to `logger`. */
export function kafkaJsLogCreator(logger: KafkaLogger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const fields: Record<string, unknown> = { namespace: namespace || "kafkajs" };
      for (const [name, value] of Object.entries(log)) {
        if (name !== "message" && name !== "timestamp" && name !== "logger") fields[name] = value;
      }
      const message = String(log.message);
      logger(kafkaJsLineLevel(fromKafkaJsLevel(level), message, fields), message, fields);
    };
}
