/**
 * The `watcher` section of XZatoma's configuration file: the service that consumes events
 * from Kafka, runs the plans they carry and publishes results. Key names are those of the original
 * XZatoma watcher
 * (`watcher_type`, `kafka.brokers`, `filters.*`, `execution.*`). The SASL password is a
 * credential: it comes from `KAFKA_SASL_PASSWORD`, never from the file.
 *
 * It lives with the runtime's configuration schema, not in `@xzatoma/watcher`, so validating a
 * configuration file installs no Kafka or CloudEvents client; `@xzatoma/watcher` and
 * `@xzatoma/watcher/config` re-export it (docs/explanation/watcher-wiring.md).
 */
import { z } from "zod";
import {
  expecting,
  filePath,
  flag,
  oneOf,
  positiveInteger,
  text,
  textList,
  timerMilliseconds,
  timerSeconds,
} from "@xzatoma/core/config";

/** The two kinds of watcher. */
export const WATCHER_TYPES = ["xzepr", "generic"] as const;
/** Which events a watcher understands. */
export type WatcherType = (typeof WATCHER_TYPES)[number];

/** Kafka security protocols, as Kafka spells them. */
export const KAFKA_SECURITY_PROTOCOLS = ["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] as const;
/** SASL mechanisms. */
export const KAFKA_SASL_MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] as const;
/** How result events are written to Kafka (CloudEvents' Kafka protocol binding). */
export const RESULT_MODES = ["structured", "binary"] as const;

const upper = <const T extends readonly [string, ...string[]]>(values: T) =>
  expecting(
    z.preprocess(
      (value) => (typeof value === "string" ? value.toUpperCase() : value),
      z.enum(values),
    ),
    `one of ${values.join(", ")}`,
  );

const port = expecting(z.number().int().min(0).max(65535), "a port number from 0 to 65535");

const securitySchema = z.strictObject({
  protocol: upper(KAFKA_SECURITY_PROTOCOLS).default("PLAINTEXT"),
  sasl_mechanism: upper(KAFKA_SASL_MECHANISMS).optional(),
  sasl_username: text().optional(),
  /** PEM files for TLS (`SSL`, `SASL_SSL`). */
  ssl_ca_file: filePath().optional(),
  ssl_cert_file: filePath().optional(),
  ssl_key_file: filePath().optional(),
  ssl_reject_unauthorized: flag().default(true),
});

const kafkaSchema = z
  .strictObject({
    /** Comma-separated `host:port` list. */
    brokers: text().optional(),
    topic: text().default("xzepr.events"),
    /** Where result events go. Default `<topic>.results`. */
    output_topic: text().optional(),
    /** Where messages that cannot be handled go, with the reason. Default `<topic>.dlq`. */
    dead_letter_topic: text().optional(),
    group_id: text().default("xzatoma-watcher"),
    client_id: text().default("xzatoma-watcher"),
    /**
     * This replica's stable identity (Kafka's `group.instance.id`): static group membership, and
     * the transactional id `<group_id>-<instance_id>`, so a restart takes its partitions back at
     * once and fences the transaction its predecessor left open. One per replica (a
     * StatefulSet's pod name). Letters, digits, `.`, `_` and `-`.
     */
    instance_id: expecting(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9._-]{1,200}$/),
      "1 to 200 letters, digits, '.', '_' or '-'",
    ).optional(),
    auto_create_topics: flag().default(true),
    num_partitions: positiveInteger(10_000).default(1),
    replication_factor: positiveInteger(32).default(1),
    /** How long the group waits for a silent member before giving its partitions to others. */
    session_timeout_ms: timerMilliseconds().default(30_000),
    result_mode: oneOf(RESULT_MODES).default("structured"),
    security: securitySchema.optional(),
  })
  .superRefine((kafka, context) => {
    // A result or dead letter written to the input topic would be consumed again: a loop.
    const topics = topicsOf(kafka);
    const clash = (key: "output_topic" | "dead_letter_topic", message: string) =>
      context.addIssue({ code: "custom", path: [key], params: { explained: true }, message });
    if (topics.output === topics.input) {
      clash(
        "output_topic",
        `watcher.kafka.output_topic is the input topic watcher.kafka.topic ("${topics.input}"): the watcher would consume its own results again. Give the results a topic of their own`,
      );
    }
    if (topics.deadLetter === topics.input) {
      clash(
        "dead_letter_topic",
        `watcher.kafka.dead_letter_topic is the input topic watcher.kafka.topic ("${topics.input}"): the watcher would consume its dead letters again. Give them a topic of their own`,
      );
    } else if (topics.deadLetter === topics.output) {
      clash(
        kafka.dead_letter_topic !== undefined ? "dead_letter_topic" : "output_topic",
        `watcher.kafka.dead_letter_topic and watcher.kafka.output_topic are the same topic ("${topics.output}"): readers of results would get dead letters. Give each a topic of its own`,
      );
    }
  });

const filtersSchema = z.strictObject({
  /** Empty: any type. */
  event_types: textList().default([]),
  /** A regular expression that must match somewhere in the event's source (`(?i)` first: any case). */
  source_pattern: text().optional(),
  platform_id: text().optional(),
  package: text().optional(),
  api_version: text().optional(),
  success_only: flag().default(true),
});

const genericMatchSchema = z.strictObject({
  /** Regular expressions, case-insensitive unless a leading `(?-i)` makes them sensitive. */
  action: text().optional(),
  name: text().optional(),
  /** A semver range the plan's `version` must satisfy (`^1.2`, `>=2 <3`). */
  version: text().optional(),
});

const executionSchema = z.strictObject({
  /**
   * Deprecated, no effect: a plan's runs never ask anyone (approval policy `never`), so a
   * command that escalates is refused and every other command runs in the sandbox.
   */
  allow_dangerous: flag().default(false),
  /** Partitions executed at once (order is kept within a partition). */
  max_concurrent_executions: positiveInteger(256).default(1),
  /** A run still going after this long is stopped and reported as failed with `timeout`. */
  execution_timeout_secs: timerSeconds().default(300),
  /** Further attempts after a run fails with an error (not a limit): 0 to 10. */
  max_retries: expecting(z.number().int().min(0).max(10), "an integer from 0 to 10").default(2),
  /** The first retry waits this long; each further one twice as long (at most MAX_TIMER_MS). */
  retry_backoff_ms: timerMilliseconds(0).default(1_000),
  /** A larger message goes to the dead-letter topic unread. */
  max_message_bytes: positiveInteger().default(1_048_576),
  /** On SIGTERM, how long in-flight runs may finish before they are abandoned (redelivered). */
  shutdown_grace_secs: timerSeconds(0).default(30),
});

const loggingSchema = z.strictObject({
  level: oneOf(["debug", "info", "warn", "error"] as const).default("info"),
  /** One JSON object per line (default), or readable text. */
  json_format: flag().default(true),
  /** Also append every line to this file. */
  file_path: filePath().optional(),
});

const healthSchema = z.strictObject({
  /** Serve `/healthz`, `/readyz` and `/metrics` here; unset: no endpoint. 0 picks a free port. */
  port: port.optional(),
  host: text().default("127.0.0.1"),
});

/** `watcher`: the service that runs plans carried by Kafka events. */
export const watcherConfigSchema = z.strictObject({
  watcher_type: upper(["XZEPR", "GENERIC"] as const)
    .transform((value) => value.toLowerCase() as WatcherType)
    .default("xzepr"),
  kafka: kafkaSchema.prefault({}),
  filters: filtersSchema.prefault({}),
  generic_match: genericMatchSchema.prefault({}),
  execution: executionSchema.prefault({}),
  logging: loggingSchema.prefault({}),
  health: healthSchema.prefault({}),
});

/** The `watcher` section after defaults. */
export type WatcherConfig = z.output<typeof watcherConfigSchema>;

/** The topics a watcher reads and writes, defaults resolved. */
export interface WatcherTopics {
  readonly input: string;
  readonly output: string;
  readonly deadLetter: string;
}

/** The topics of a `kafka` section, defaults resolved. */
function topicsOf(kafka: {
  readonly topic: string;
  readonly output_topic?: string | undefined;
  readonly dead_letter_topic?: string | undefined;
}): WatcherTopics {
  const input = kafka.topic;
  return {
    input,
    output: kafka.output_topic ?? `${input}.results`,
    deadLetter: kafka.dead_letter_topic ?? `${input}.dlq`,
  };
}

/**
 * The input, output and dead-letter topics of `config`. The schema refuses a configuration
 * where two of them are the same topic.
 */
export function watcherTopics(config: WatcherConfig): WatcherTopics {
  return topicsOf(config.kafka);
}
