import { isErrorCode, isXzatomaError, XzatomaError } from "@xzatoma/errors";
import { describe, expect, it } from "vitest";
import kafkajs from "kafkajs";
import {
  isKafkaTransportError,
  isLeaderChangeError,
  KafkaConfigError,
  KafkaTransportError,
} from "./kafka-transport-error.js";

describe("the Kafka transport's errors", () => {
  it("KafkaConfigError is an XzatomaError with CONFIG_INVALID and the key", () => {
    const error = new KafkaConfigError("watcher.kafka.brokers", "watcher.kafka.brokers is empty");
    expect(isXzatomaError(error)).toBe(true);
    expect(error).toBeInstanceOf(XzatomaError);
    expect(isErrorCode(error.code)).toBe(true);
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.key).toBe("watcher.kafka.brokers");
    expect(error.fields).toEqual({ key: "watcher.kafka.brokers" });
  });

  it.each(["KAFKA_AUTH_FAILED", "KAFKA_UNAVAILABLE", "KAFKA_CONSUMER_FAILED"] as const)(
    "KafkaTransportError %s is an XzatomaError with its facts in fields",
    (code) => {
      const cause = new Error("broker said no");
      const error = new KafkaTransportError({
        code,
        message: "m",
        cause,
        fields: { brokers: ["127.0.0.1:9092"], configPath: "watcher.kafka" },
      });
      expect(isXzatomaError(error)).toBe(true);
      expect(isKafkaTransportError(error)).toBe(true);
      expect(error).toBeInstanceOf(XzatomaError);
      expect(isErrorCode(error.code)).toBe(true);
      expect(error.code).toBe(code);
      expect(error.cause).toBe(cause);
      expect(error.fields).toEqual({ brokers: ["127.0.0.1:9092"], configPath: "watcher.kafka" });
    },
  );

  it("tells a leader being chosen (asked again) from other protocol errors (thrown)", () => {
    const protocol = (type: string, code: number) =>
      new kafkajs.KafkaJSProtocolError(
        Object.assign(new Error(type), { type, code, retriable: true }),
      );
    const notLeader = protocol("NOT_LEADER_FOR_PARTITION", 6);
    expect(isLeaderChangeError(notLeader)).toBe(true);
    expect(isLeaderChangeError(protocol("LEADER_NOT_AVAILABLE", 5))).toBe(true);
    // Wrapped the way kafkajs's retrier wraps the last error.
    expect(
      isLeaderChangeError(
        new kafkajs.KafkaJSNumberOfRetriesExceeded(notLeader, { retryCount: 5, retryTime: 300 }),
      ),
    ).toBe(true);
    expect(isLeaderChangeError(protocol("TOPIC_AUTHORIZATION_FAILED", 29))).toBe(false);
    expect(isLeaderChangeError(protocol("UNKNOWN_TOPIC_OR_PARTITION", 3))).toBe(false);
    expect(isLeaderChangeError(new Error("NOT_LEADER_FOR_PARTITION"))).toBe(false);
  });
});
