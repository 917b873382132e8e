import { readFileSync } from "node:fs";
import { XzatomaError } from "@xzatoma/core";
import type { WatcherConfig, WatcherLogger } from "../index.js";
import type { EventTransport } from "@xzatoma/xzepr";
import { createKafkaTransport } from "@xzatoma/xzepr/kafka";

/** What {@link createWatcherTransport} needs besides the watcher section. */
export interface WatcherTransportOptions {
  /** Where `KAFKA_SASL_PASSWORD` is read. */
  readonly env: NodeJS.ProcessEnv;
  /** Receives the Kafka client's lines (errors and warnings as such, the rest as debug). */
  readonly logger: WatcherLogger;
  /**
   * Default true: results and offset commits in one transaction (the service). Tools that
   * only publish or read (`xzatoma-watcher publish`, `results`) pass false.
   */
  readonly transactional?: boolean;
  /** Kafka client id; default {@link clientIdOf}. */
  readonly clientId?: string;
}

/**
 * The service's Kafka `client.id`: `watcher.kafka.client_id`, and with
 * `watcher.kafka.instance_id` the identity after it (`xzatoma-watcher-xzatoma-watcher-0`), so
 * the broker's logs, quotas and the group's member list tell the replicas apart.
 */
export function clientIdOf(watcher: WatcherConfig): string {
  const { client_id: clientId, instance_id: instanceId } = watcher.kafka;
  return instanceId === undefined ? clientId : `${clientId}-${instanceId}`;
}

/** `watcher.kafka.brokers` as a list, or a configuration error that names the key. */
export function brokersOf(watcher: WatcherConfig): string[] {
  const brokers = (watcher.kafka.brokers ?? "")
    .split(",")
    .map((broker) => broker.trim())
    .filter((broker) => broker !== "");
  if (brokers.length === 0) {
    throw new XzatomaError(
      "CONFIG_INVALID",
      "watcher.kafka.brokers is not set: give the Kafka bootstrap servers as host:port, comma-separated (or XZATOMA_WATCHER_KAFKA_BROKERS).",
    );
  }
  return brokers;
}

/**
 * The Kafka transport `watcher.kafka` describes: brokers, client id, session timeout, TLS
 * files read here (an unreadable file is a configuration error naming its key) and SASL.
 */
export function createWatcherTransport(
  watcher: WatcherConfig,
  options: WatcherTransportOptions,
): EventTransport {
  const { logger } = options;
  const brokers = brokersOf(watcher);
  const security = watcher.kafka.security;
  const read = (file: string | undefined, key: string) => {
    if (file === undefined) return undefined;
    try {
      return readFileSync(file, "utf8");
    } catch (error) {
      throw new XzatomaError(
        "CONFIG_INVALID",
        `watcher.kafka.security.${key}: cannot read '${file}': ${(error as Error).message}`,
      );
    }
  };
  return createKafkaTransport({
    brokers,
    clientId: options.clientId ?? clientIdOf(watcher),
    sessionTimeoutMs: watcher.kafka.session_timeout_ms,
    ...(watcher.kafka.instance_id !== undefined && options.transactional !== false
      ? { groupInstanceId: watcher.kafka.instance_id }
      : {}),
    env: options.env,
    ...(options.transactional === false ? { transactional: false } : {}),
    logger: (level, message, fields) => {
      // A routine rebalance arrives as info (the transport lowers kafkajs's warning or error).
      if (level === "error") logger.error(`kafka: ${message}`, fields);
      else if (level === "warn") logger.warn(`kafka: ${message}`, fields);
      else if (level === "info") logger.info(`kafka: ${message}`, fields);
      else logger.debug(`kafka: ${message}`, fields);
    },
    ...(security
      ? {
          security: {
            protocol: security.protocol,
            ...(security.sasl_mechanism !== undefined
              ? { saslMechanism: security.sasl_mechanism }
              : {}),
            ...(security.sasl_username !== undefined
              ? { saslUsername: security.sasl_username }
              : {}),
            ssl: {
              ...(security.ssl_ca_file !== undefined
                ? { ca: read(security.ssl_ca_file, "ssl_ca_file") }
                : {}),
              ...(security.ssl_cert_file !== undefined
                ? { cert: read(security.ssl_cert_file, "ssl_cert_file") }
                : {}),
              ...(security.ssl_key_file !== undefined
                ? { key: read(security.ssl_key_file, "ssl_key_file") }
                : {}),
              rejectUnauthorized: security.ssl_reject_unauthorized,
            },
          },
        }
      : {}),
  });
}
