/**
 * Kafka connection security as XZatoma configures it (Kafka's own `security.protocol` and
 * `sasl.mechanism` names), turned into kafkajs's `ssl` and `sasl` options.
 */
import type { ConnectionOptions } from "node:tls";
import type { SASLOptions } from "kafkajs";
import { KafkaConfigError } from "./kafka-transport-error.js";

/** Kafka's `security.protocol`. */
export type KafkaSecurityProtocol = "PLAINTEXT" | "SSL" | "SASL_PLAINTEXT" | "SASL_SSL";

/** Kafka's `sasl.mechanism`: the ones kafkajs speaks with a user name and password. */
export type KafkaSaslMechanism = "PLAIN" | "SCRAM-SHA-256" | "SCRAM-SHA-512";

/** TLS material as PEM text (the caller reads the files). */
export interface KafkaSslOptions {
  readonly ca?: string | readonly string[];
  readonly cert?: string;
  readonly key?: string;
  /** Default true; false accepts any certificate (test brokers only). */
  readonly rejectUnauthorized?: boolean;
}

/** How to reach the brokers. */
export interface KafkaSecurity {
  readonly protocol: KafkaSecurityProtocol;
  /** Default `PLAIN` when the protocol uses SASL. */
  readonly saslMechanism?: KafkaSaslMechanism;
  readonly saslUsername?: string;
  /** Default: `KAFKA_SASL_PASSWORD` from the transport's `env`, which keeps it out of files. */
  readonly saslPassword?: string;
  /** Used with `SSL` and `SASL_SSL`. */
  readonly ssl?: KafkaSslOptions;
}

/** The environment variable the SASL password is read from when the options carry none. */
export const KAFKA_SASL_PASSWORD_ENV = "KAFKA_SASL_PASSWORD";

/** kafkajs's connection options for a {@link KafkaSecurity}. */
export interface ResolvedKafkaSecurity {
  readonly ssl?: ConnectionOptions | boolean;
  readonly sasl?: SASLOptions;
}

const PROTOCOLS: readonly string[] = ["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"];

/**
 * Checks the security settings and maps them to kafkajs's. `configPath` is where they sit
 * in the configuration (default `watcher.kafka`), so each error names the key to fix:
 *
 * ```ts
 * resolveKafkaSecurity({ protocol: "SASL_SSL", saslMechanism: "SCRAM-SHA-512" }, process.env);
 * // KafkaConfigError: watcher.kafka.security.sasl_username is required when sasl_mechanism is SCRAM-SHA-512.
 * ```
 *
 * The password is `saslPassword`, else `env.KAFKA_SASL_PASSWORD`; it appears in no message.
 */
export function resolveKafkaSecurity(
  security: KafkaSecurity | undefined,
  env: Readonly<Record<string, string | undefined>> = {},
  configPath = "watcher.kafka",
): ResolvedKafkaSecurity {
  if (!security) return {};
  const key = (name: string) => `${configPath}.security.${name}`;
  const { protocol } = security;
  if (!PROTOCOLS.includes(protocol)) {
    throw new KafkaConfigError(
      key("protocol"),
      `${key("protocol")} must be PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL, not ${JSON.stringify(protocol)}.`,
    );
  }
  const usesSasl = protocol === "SASL_PLAINTEXT" || protocol === "SASL_SSL";
  const usesTls = protocol === "SSL" || protocol === "SASL_SSL";

  const ssl = security.ssl;
  if (!usesTls && (ssl?.ca !== undefined || ssl?.cert !== undefined || ssl?.key !== undefined)) {
    throw new KafkaConfigError(
      key("protocol"),
      `TLS files (${key("ssl_ca_file")}, ssl_cert_file, ssl_key_file) are set but ${key("protocol")} is ${protocol}: use SSL or SASL_SSL to connect with TLS.`,
    );
  }
  if (!usesSasl) {
    if (security.saslMechanism !== undefined || security.saslUsername !== undefined) {
      throw new KafkaConfigError(
        key("protocol"),
        `SASL settings (${key("sasl_mechanism")}, sasl_username) are set but ${key("protocol")} is ${protocol}: use SASL_PLAINTEXT or SASL_SSL to authenticate.`,
      );
    }
    return usesTls ? { ssl: tlsOptions(ssl) } : {};
  }

  const mechanism = security.saslMechanism ?? "PLAIN";
  const username = security.saslUsername?.trim();
  if (!username) {
    throw new KafkaConfigError(
      key("sasl_username"),
      `${key("sasl_username")} is required when ${key("protocol")} is ${protocol} (sasl_mechanism ${mechanism}).`,
    );
  }
  const password = security.saslPassword ?? env[KAFKA_SASL_PASSWORD_ENV];
  if (!password) {
    throw new KafkaConfigError(
      key("sasl_password"),
      `The SASL password of ${key("sasl_username")} '${username}' is not set: put it in the environment variable ${KAFKA_SASL_PASSWORD_ENV}.`,
    );
  }
  let sasl: SASLOptions;
  switch (mechanism) {
    case "PLAIN":
      sasl = { mechanism: "plain", username, password };
      break;
    case "SCRAM-SHA-256":
      sasl = { mechanism: "scram-sha-256", username, password };
      break;
    case "SCRAM-SHA-512":
      sasl = { mechanism: "scram-sha-512", username, password };
      break;
    default:
      throw new KafkaConfigError(
        key("sasl_mechanism"),
        `${key("sasl_mechanism")} must be PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512, not ${JSON.stringify(mechanism)}.`,
      );
  }
  return usesTls ? { ssl: tlsOptions(ssl), sasl } : { sasl };
}

function tlsOptions(ssl: KafkaSslOptions | undefined): ConnectionOptions | boolean {
  const options: ConnectionOptions = {};
  if (ssl?.ca !== undefined) options.ca = typeof ssl.ca === "string" ? ssl.ca : [...ssl.ca];
  if (ssl?.cert !== undefined) options.cert = ssl.cert;
  if (ssl?.key !== undefined) options.key = ssl.key;
  if (ssl?.rejectUnauthorized !== undefined) options.rejectUnauthorized = ssl.rejectUnauthorized;
  return Object.keys(options).length > 0 ? options : true;
}
