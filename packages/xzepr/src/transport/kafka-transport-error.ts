/**
 * What the Kafka transport throws or reports, and which broker errors it cannot get past.
 */
import { XzatomaError, type ErrorCode } from "@xzatoma/errors";

/**
 * An invalid Kafka setting (code `CONFIG_INVALID`). `key` names the configuration key to
 * fix, e.g. `watcher.kafka.security.sasl_username`, and so does the message. Thrown by
 * {@link createKafkaTransport} before anything connects.
 */
export class KafkaConfigError extends XzatomaError<{ readonly key: string }> {
  declare readonly code: "CONFIG_INVALID";
  override readonly name = "KafkaConfigError";
  readonly key: string;

  constructor(key: string, message: string) {
    super("CONFIG_INVALID", message, { fields: { key } });
    this.key = key;
  }
}

/** The codes of {@link KafkaTransportError}. */
export type KafkaTransportErrorCode = Extract<
  ErrorCode,
  "KAFKA_AUTH_FAILED" | "KAFKA_UNAVAILABLE" | "KAFKA_CONSUMER_FAILED"
>;

/**
 * The facts behind a {@link KafkaTransportError}: the brokers, the configuration key the
 * transport's settings came from (`watcher.kafka`), and the group and topic when a consumer
 * failed. Never a password.
 */
export interface KafkaTransportErrorFields {
  readonly brokers?: readonly string[];
  readonly configPath?: string;
  readonly groupId?: string;
  readonly topic?: string;
}

/**
 * The broker could not be used. `code` is one of:
 * - `KAFKA_AUTH_FAILED`: the broker refused the credentials or the permissions;
 * - `KAFKA_UNAVAILABLE`: no broker answered, or a topic could not be subscribed to;
 * - `KAFKA_CONSUMER_FAILED`: the consumer stopped for good (reported through `onFatal`).
 *
 * Messages name the brokers and the group; never a password.
 */
export class KafkaTransportError extends XzatomaError<KafkaTransportErrorFields> {
  override readonly name = "KafkaTransportError";
  declare readonly code: KafkaTransportErrorCode;

  constructor(options: {
    readonly code: KafkaTransportErrorCode;
    readonly message: string;
    readonly cause?: unknown;
    readonly fields?: KafkaTransportErrorFields;
  }) {
    super(options.code, options.message, {
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      fields: options.fields ?? {},
    });
  }
}

/** True for a {@link KafkaTransportError}, from this copy of the package or another. */
export function isKafkaTransportError(value: unknown): value is KafkaTransportError {
  return (
    value instanceof Error &&
    value.name === "KafkaTransportError" &&
    typeof (value as { code?: unknown }).code === "string"
  );
}

/** Broker error types that retrying does not cure: credentials and permissions. */
const FATAL_TYPES = new Set([
  "SASL_AUTHENTICATION_FAILED",
  "UNSUPPORTED_SASL_MECHANISM",
  "ILLEGAL_SASL_STATE",
  "TOPIC_AUTHORIZATION_FAILED",
  "GROUP_AUTHORIZATION_FAILED",
  "CLUSTER_AUTHORIZATION_FAILED",
  "TRANSACTIONAL_ID_AUTHORIZATION_FAILED",
]);

/** Errors a group member fixes by re-joining, which it does only after the handler returns. */
const REBALANCE_TYPES = new Set([
  "REBALANCE_IN_PROGRESS",
  "ILLEGAL_GENERATION",
  "UNKNOWN_MEMBER_ID",
  "NOT_COORDINATOR_FOR_GROUP",
  "NOT_COORDINATOR",
  "FENCED_INSTANCE_ID",
]);

interface KafkaJsErrorShape {
  readonly name?: unknown;
  readonly type?: unknown;
  readonly cause?: unknown;
  readonly originalError?: unknown;
  readonly errors?: unknown;
}

/** The error and every error it wraps (kafkajs nests them in `cause`, `originalError`, `errors`). */
function* causes(error: unknown, depth = 0): Generator<KafkaJsErrorShape> {
  if (depth > 8 || typeof error !== "object" || error === null) return;
  const shape = error as KafkaJsErrorShape;
  yield shape;
  yield* causes(shape.cause, depth + 1);
  yield* causes(shape.originalError, depth + 1);
  if (Array.isArray(shape.errors))
    for (const inner of shape.errors) yield* causes(inner, depth + 1);
}

/** True when a kafkajs error means the credentials or permissions are wrong. */
export function isAuthError(error: unknown): boolean {
  for (const shape of causes(error)) {
    if (shape.name === "KafkaJSSASLAuthenticationError") return true;
    if (typeof shape.type === "string" && FATAL_TYPES.has(shape.type)) return true;
  }
  return false;
}

/** True when a kafkajs error says the group moved on (a rebalance, an expired membership). */
export function isRebalanceError(error: unknown): boolean {
  for (const shape of causes(error)) {
    if (typeof shape.type === "string" && REBALANCE_TYPES.has(shape.type)) return true;
  }
  return false;
}

const FENCED_TYPES = new Set(["FENCED_INSTANCE_ID", "PRODUCER_FENCED", "INVALID_PRODUCER_EPOCH"]);

/**
 * True when a kafkajs error says another process took this instance's identity: its group
 * instance id or its transactional id. Trying again would fence that process in turn.
 */
export function isFencedError(error: unknown): boolean {
  for (const shape of causes(error)) {
    if (typeof shape.type === "string" && FENCED_TYPES.has(shape.type)) return true;
  }
  return false;
}

const LEADER_CHANGE_TYPES = new Set([
  "LEADER_NOT_AVAILABLE",
  "NOT_LEADER_FOR_PARTITION",
  "FENCED_LEADER_EPOCH",
  "UNKNOWN_LEADER_EPOCH",
]);

/**
 * True when a kafkajs error says a partition's leader is being chosen or has just moved (a
 * topic just made, a broker just back): the same request a moment later finds the new one.
 */
export function isLeaderChangeError(error: unknown): boolean {
  for (const shape of causes(error)) {
    if (typeof shape.type === "string" && LEADER_CHANGE_TYPES.has(shape.type)) return true;
  }
  return false;
}

/** The message of an unknown thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
