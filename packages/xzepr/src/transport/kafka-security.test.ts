import { describe, expect, it } from "vitest";
import { resolveKafkaSecurity, type KafkaSecurity } from "./kafka-security.js";
import { KafkaConfigError } from "./kafka-transport-error.js";
import { createKafkaTransport } from "./kafka-transport.js";

function refusal(security: KafkaSecurity, env: Record<string, string> = {}): KafkaConfigError {
  try {
    resolveKafkaSecurity(security, env);
  } catch (error) {
    expect(error).toBeInstanceOf(KafkaConfigError);
    return error as KafkaConfigError;
  }
  throw new Error("expected the security settings to be refused");
}

describe("resolveKafkaSecurity", () => {
  it("connects in plain text when nothing is set", () => {
    expect(resolveKafkaSecurity(undefined)).toEqual({});
    expect(resolveKafkaSecurity({ protocol: "PLAINTEXT" })).toEqual({});
    // What a configuration with defaults passes: a verification flag without files.
    expect(
      resolveKafkaSecurity({ protocol: "PLAINTEXT", ssl: { rejectUnauthorized: true } }),
    ).toEqual({});
  });

  it("uses TLS with the PEM material given, or the system's trust store", () => {
    expect(resolveKafkaSecurity({ protocol: "SSL" })).toEqual({ ssl: true });
    expect(
      resolveKafkaSecurity({
        protocol: "SSL",
        ssl: { ca: "CA PEM", cert: "CERT PEM", key: "KEY PEM", rejectUnauthorized: false },
      }),
    ).toEqual({
      ssl: { ca: "CA PEM", cert: "CERT PEM", key: "KEY PEM", rejectUnauthorized: false },
    });
  });

  it("maps Kafka's SASL mechanism names and reads the password from the environment", () => {
    expect(
      resolveKafkaSecurity(
        { protocol: "SASL_SSL", saslMechanism: "SCRAM-SHA-512", saslUsername: "watcher" },
        { KAFKA_SASL_PASSWORD: "from-env" },
      ),
    ).toEqual({
      ssl: true,
      sasl: { mechanism: "scram-sha-512", username: "watcher", password: "from-env" },
    });
    expect(
      resolveKafkaSecurity(
        {
          protocol: "SASL_PLAINTEXT",
          saslMechanism: "SCRAM-SHA-256",
          saslUsername: "watcher",
          saslPassword: "given",
        },
        { KAFKA_SASL_PASSWORD: "from-env" },
      ),
    ).toEqual({ sasl: { mechanism: "scram-sha-256", username: "watcher", password: "given" } });
    expect(
      resolveKafkaSecurity({ protocol: "SASL_PLAINTEXT", saslUsername: "w", saslPassword: "p" }),
    ).toEqual({ sasl: { mechanism: "plain", username: "w", password: "p" } });
  });

  it("names the configuration key to fix, and never the password", () => {
    const noUser = refusal({ protocol: "SASL_SSL", saslMechanism: "PLAIN" });
    expect(noUser.key).toBe("watcher.kafka.security.sasl_username");
    expect(noUser.code).toBe("CONFIG_INVALID");
    expect(noUser.message).toBe(
      "watcher.kafka.security.sasl_username is required when watcher.kafka.security.protocol is SASL_SSL (sasl_mechanism PLAIN).",
    );

    const noPassword = refusal({ protocol: "SASL_SSL", saslUsername: "watcher" });
    expect(noPassword.key).toBe("watcher.kafka.security.sasl_password");
    expect(noPassword.message).toContain("KAFKA_SASL_PASSWORD");

    const wrongProtocol = refusal({
      protocol: "PLAINTEXT",
      saslMechanism: "PLAIN",
      saslUsername: "watcher",
      saslPassword: "hunter2",
    });
    expect(wrongProtocol.key).toBe("watcher.kafka.security.protocol");
    expect(wrongProtocol.message).toContain("SASL_PLAINTEXT or SASL_SSL");
    expect(wrongProtocol.message).not.toContain("hunter2");

    const tlsFiles = refusal({ protocol: "SASL_PLAINTEXT", ssl: { ca: "CA PEM" } });
    expect(tlsFiles.message).toContain("watcher.kafka.security.ssl_ca_file");

    const unknown = refusal({ protocol: "KERBEROS" as KafkaSecurity["protocol"] });
    expect(unknown.message).toBe(
      'watcher.kafka.security.protocol must be PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL, not "KERBEROS".',
    );
    expect(
      refusal({
        protocol: "SASL_SSL",
        saslMechanism: "GSSAPI" as KafkaSecurity["saslMechanism"],
        saslUsername: "w",
        saslPassword: "p",
      }).key,
    ).toBe("watcher.kafka.security.sasl_mechanism");
  });

  it("words keys under another configuration path when asked", () => {
    expect(() => resolveKafkaSecurity({ protocol: "SASL_SSL" }, {}, "bench.kafka")).toThrowError(
      "bench.kafka.security.sasl_username is required",
    );
  });
});

describe("createKafkaTransport options", () => {
  it("refuses bad settings before connecting", () => {
    expect(() => createKafkaTransport({ brokers: [" "] })).toThrowError(
      "watcher.kafka.brokers is empty: give at least one broker as host:port.",
    );
    expect(() =>
      createKafkaTransport({
        brokers: ["127.0.0.1:9"],
        security: { protocol: "SASL_SSL", saslUsername: "watcher" },
        env: {},
      }),
    ).toThrowError(KafkaConfigError);
  });
});
