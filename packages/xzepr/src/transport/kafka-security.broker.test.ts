// The kafkajs transport against a real Apache Kafka broker that requires SASL or TLS
// (tools/kafka with KAFKA_SECURITY=on, started once for this file): a SASL_PLAINTEXT listener
// (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512), an SSL one and a SASL_SSL one, the broker's
// certificate signed by a CA made for this broker. No timing is asserted: every wait is for a
// condition, with a deadline generous enough for a loaded two-core machine.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";
import { startTestBroker, type TestBroker } from "@xzatoma/scripted-servers/kafka";
import kafkajs from "kafkajs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EventTransport, InboundMessage } from "./event-transport.js";
import type { KafkaSecurity } from "./kafka-security.js";
import {
  createKafkaTransport,
  isKafkaTransportError,
  KAFKA_SASL_PASSWORD_ENV,
  type KafkaTransportOptions,
} from "./kafka-transport.js";

const { Kafka, logLevel } = kafkajs;
const DEADLINE_MS = 90_000;

let broker: TestBroker;
let secured: NonNullable<TestBroker["security"]>;
const cleanups: (() => Promise<unknown>)[] = [];
/** Kafka client log lines of the test, shown when a wait fails and searched for secrets. */
const logLines: string[] = [];

beforeAll(async () => {
  broker = await startTestBroker({ security: true });
  if (!broker.security) throw new Error("the broker was started without its secured listeners");
  secured = broker.security;
}, 300_000);

afterEach(async () => {
  await Promise.allSettled(cleanups.splice(0).map((cleanup) => cleanup()));
}, 120_000);

afterAll(async () => {
  await broker?.stop();
}, 120_000);

function transport(
  brokers: string,
  security: KafkaSecurity,
  options: Partial<KafkaTransportOptions> = {},
): EventTransport {
  const created = createKafkaTransport({
    brokers: [brokers],
    clientId: "xzepr-security-test",
    security,
    // The password travels as the watcher passes it: in the environment, not the options.
    env: { [KAFKA_SASL_PASSWORD_ENV]: secured.password },
    logLevel: "warn",
    logger: (level, message, fields) =>
      logLines.push(`${level} ${message} ${JSON.stringify(fields)}`),
    retry: { initialRetryTimeMs: 200, maxRetryTimeMs: 3000, retries: 8 },
    ...options,
  });
  cleanups.push(() => created.stop(0));
  return created;
}

function names(label: string) {
  const id = randomUUID().slice(0, 8);
  return { topic: `${label}-${id}`, output: `${label}-${id}.results`, groupId: `${label}-g-${id}` };
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}\n${logLines.slice(-30).join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const text = (message: InboundMessage) => new TextDecoder().decode(message.value ?? undefined);

/**
 * Through the secured listener only: creates a topic, publishes to it, consumes it with a
 * handler whose result goes to a second topic in the offset's transaction, waits for the
 * commit, and reads the result back with a second transport of the same security.
 */
async function roundTrip(label: string, brokers: string, security: KafkaSecurity): Promise<void> {
  const { topic, output, groupId } = names(label);
  const kafka = transport(brokers, security);
  await kafka.ensureTopics([
    { topic, numPartitions: 1, replicationFactor: 1 },
    { topic: output, numPartitions: 1, replicationFactor: 1 },
  ]);
  await kafka.publish({ topic, records: [{ key: "event-1", value: `hello over ${label}` }] });

  const seen: string[] = [];
  let fatal: Error | undefined;
  await kafka.consume({
    topic,
    groupId,
    concurrency: 1,
    handler: async (message) => {
      seen.push(text(message));
      return { publish: [{ topic: output, records: [{ value: `done: ${text(message)}` }] }] };
    },
    onFatal: (error) => (fatal = error),
  });
  await waitFor(`${label}: the message`, () => seen.length > 0 || fatal !== undefined);
  expect(fatal).toBeUndefined();
  expect(seen).toEqual([`hello over ${label}`]);
  await waitFor(`${label}: the commit`, async () => (await kafka.lag()) === 0);

  const reader = transport(brokers, security);
  const results: string[] = [];
  await reader.consume({
    topic: output,
    groupId: `${groupId}-reader`,
    concurrency: 1,
    handler: async (message) => {
      results.push(text(message));
      return { publish: [] };
    },
  });
  await waitFor(`${label}: the result`, () => results.length > 0);
  expect(results).toEqual([`done: hello over ${label}`]);
}

/** The error a call rejects with (fails the test when it resolves). */
async function failureOf(call: Promise<unknown>): Promise<Error> {
  const outcome = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error("expected the call to fail");
  return outcome;
}

/** Every message and stack in an error's cause chain (kafkajs nests them). */
function allText(error: unknown, depth = 0): string {
  if (depth > 8 || typeof error !== "object" || error === null) return String(error);
  const shape = error as {
    message?: unknown;
    stack?: unknown;
    cause?: unknown;
    originalError?: unknown;
  };
  return [
    String(shape.message),
    String(shape.stack),
    JSON.stringify(error, (_key, value: unknown) =>
      typeof value === "bigint" ? String(value) : value,
    ),
    shape.cause === undefined ? "" : allText(shape.cause, depth + 1),
    shape.originalError === undefined ? "" : allText(shape.originalError, depth + 1),
  ].join("\n");
}

/** Whether a topic exists, asked over the broker's PLAINTEXT listener. */
async function topicExists(topic: string): Promise<boolean> {
  const admin = new Kafka({
    brokers: [broker.bootstrap],
    clientId: "xzepr-security-test-admin",
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    return (await admin.listTopics()).includes(topic);
  } finally {
    await admin.disconnect();
  }
}

describe("createKafkaTransport on a broker that requires SASL or TLS", { timeout: 240_000 }, () => {
  it("round-trips over SASL PLAIN with the password from KAFKA_SASL_PASSWORD", async () => {
    const security: KafkaSecurity = {
      protocol: "SASL_PLAINTEXT",
      saslMechanism: "PLAIN",
      saslUsername: secured.username,
    };
    expect(security.saslPassword).toBeUndefined(); // not in the configuration
    await roundTrip("sasl-plain", secured.saslPlaintext, security);
  });

  it("round-trips over SASL SCRAM-SHA-256", async () => {
    await roundTrip("scram-256", secured.saslPlaintext, {
      protocol: "SASL_PLAINTEXT",
      saslMechanism: "SCRAM-SHA-256",
      saslUsername: secured.username,
    });
  });

  it("round-trips over TLS trusting the broker's CA from a PEM file", async () => {
    await roundTrip("tls", secured.ssl, {
      protocol: "SSL",
      ssl: { ca: readFileSync(secured.caFile, "utf8") },
    });
  });

  it("round-trips over SASL_SSL with SCRAM-SHA-512", async () => {
    await roundTrip("sasl-ssl", secured.saslSsl, {
      protocol: "SASL_SSL",
      saslMechanism: "SCRAM-SHA-512",
      saslUsername: secured.username,
      ssl: { ca: readFileSync(secured.caFile, "utf8") },
    });
  });

  it("refuses a wrong password with an error naming the mechanism, never the password", async () => {
    const wrong = `wrong-${randomUUID()}`;
    for (const mechanism of ["PLAIN", "SCRAM-SHA-256"] as const) {
      logLines.length = 0;
      const { topic, groupId } = names(`wrong-${mechanism.toLowerCase()}`);
      const kafka = transport(
        secured.saslPlaintext,
        { protocol: "SASL_PLAINTEXT", saslMechanism: mechanism, saslUsername: secured.username },
        { env: { [KAFKA_SASL_PASSWORD_ENV]: wrong }, logLevel: "debug" },
      );
      for (const failure of [
        await failureOf(kafka.ensureTopics([{ topic, numPartitions: 1, replicationFactor: 1 }])),
        await failureOf(
          kafka.consume({ topic, groupId, concurrency: 1, handler: async () => ({ publish: [] }) }),
        ),
      ]) {
        expect(isKafkaTransportError(failure)).toBe(true);
        expect(failure).toMatchObject({ code: "KAFKA_AUTH_FAILED" });
        expect(failure.message).toContain(`refused the`);
        expect(failure.message).toContain(`check watcher.kafka.security`);
        expect(failure.message).toContain(mechanism);
        expect(allText(failure)).not.toContain(wrong);
        expect(allText(failure)).not.toContain(secured.password);
      }
      const logged = logLines.join("\n");
      expect(logged).not.toContain(wrong);
      expect(logged).not.toContain(secured.password);
      expect(await topicExists(topic)).toBe(false);
    }
  });

  it("fails closed when the broker's certificate is not trusted", async () => {
    // A real CA that did not sign the broker's certificate, and the system's trust store.
    const untrusted: readonly KafkaSecurity[] = [
      { protocol: "SSL", ssl: { ca: rootCertificates[0]! } },
      { protocol: "SSL" },
      {
        protocol: "SASL_SSL",
        saslMechanism: "PLAIN",
        saslUsername: secured.username,
        ssl: { ca: rootCertificates[0]! },
      },
    ];
    for (const [i, security] of untrusted.entries()) {
      const { topic } = names(`untrusted-${i}`);
      const brokers = security.protocol === "SSL" ? secured.ssl : secured.saslSsl;
      const kafka = transport(brokers, security, {
        retry: { initialRetryTimeMs: 100, maxRetryTimeMs: 500, retries: 1 },
      });
      const failure = await failureOf(
        kafka.ensureTopics([{ topic, numPartitions: 1, replicationFactor: 1 }]),
      );
      expect(isKafkaTransportError(failure)).toBe(true);
      expect(failure).toMatchObject({ code: "KAFKA_UNAVAILABLE" });
      expect(failure.message).toMatch(/certificate/i);
      expect(allText(failure)).not.toContain(secured.password);
      const published = await failureOf(kafka.publish({ topic, records: [{ value: "x" }] }));
      expect(published.message).toMatch(/certificate/i);
      expect(await topicExists(topic)).toBe(false);
    }
  });
});
