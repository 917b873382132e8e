/**
 * Configuration sections XZatoma accepts but nothing builds yet: the Kafka watcher and the
 * XZepr integration. Their values are validated like every other key (so a file written for
 * a later version is checked today), and a front end warns for each key set in them that it
 * has no effect yet, instead of calling it unknown.
 */
import { z } from "zod";
import { flag, httpUrl, oneOf, text, textList } from "@xzatoma/core";

/** One section that is accepted and validated but read by nothing yet. */
export interface PendingConfigSection {
  /** The key path of the section (`watcher`); every key below it is pending too. */
  readonly keyPath: string;
  /** Which later work makes it take effect, in a few words. */
  readonly reason: string;
}

/** The key paths of {@link PENDING_CONFIG_SECTIONS} and why each has no effect yet. */
export const PENDING_CONFIG_SECTIONS: readonly PendingConfigSection[] = [
  { keyPath: "watcher", reason: "the watcher's Kafka consumer that reads it is not built yet" },
  { keyPath: "xzepr", reason: "the XZepr API client and Kafka consumer are not built yet" },
];

/** The pending section `keyPath` (`watcher.kafka.topic`) belongs to, if any. */
export function pendingSectionOf(keyPath: string): PendingConfigSection | undefined {
  return PENDING_CONFIG_SECTIONS.find(
    (section) => keyPath === section.keyPath || keyPath.startsWith(`${section.keyPath}.`),
  );
}

/** What zod's registry holds for a pending section's schema: `{ pending: reason }`. */
export interface PendingMeta {
  readonly pending: string;
}

/** Whether zod metadata marks a schema as a pending section; the reason when it does. */
export function pendingReasonOf(schema: z.ZodType): string | undefined {
  const meta = z.globalRegistry.get(schema) as Partial<PendingMeta> | undefined;
  return typeof meta?.pending === "string" ? meta.pending : undefined;
}

function pending<T extends z.ZodType>(keyPath: string, schema: T) {
  const section = PENDING_CONFIG_SECTIONS.find((entry) => entry.keyPath === keyPath);
  if (section === undefined) throw new Error(`${keyPath} is not a pending section`);
  // Optional: absent unless the file sets it, so `config show` lists no unavailable feature.
  return schema.optional().meta({ pending: section.reason });
}

/** Kafka security protocols, as Kafka spells them. */
export const KAFKA_SECURITY_PROTOCOLS = ["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] as const;
/** SASL mechanisms Kafka clients offer. */
export const KAFKA_SASL_MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] as const;

/** A Kafka connection. The SASL password is a credential and never lives in the file. */
function kafkaSchema(defaultGroupId: string) {
  return z.strictObject({
    bootstrap_servers: text().optional(),
    topic: text().default("xzepr.events"),
    group_id: text().default(defaultGroupId),
    security_protocol: oneOf(KAFKA_SECURITY_PROTOCOLS).default("PLAINTEXT"),
    sasl_mechanism: oneOf(KAFKA_SASL_MECHANISMS).optional(),
    sasl_username: text().optional(),
  });
}

/** `watcher`: the service that runs plans carried by Kafka events. */
export const watcherConfigSchema = z.strictObject({
  enabled: flag().default(false),
  kafka: kafkaSchema("xzatoma-watcher").prefault({}),
  /** Empty lists accept everything. */
  filter: z
    .strictObject({
      event_types: textList().default([]),
      sources: textList().default([]),
      platforms: textList().default([]),
    })
    .prefault({}),
});

/** `xzepr`: the XZepr platform's API and event stream. The API key is a credential. */
export const xzeprConfigSchema = z.strictObject({
  enabled: flag().default(false),
  api_url: httpUrl().optional(),
  kafka: kafkaSchema("xzatoma-consumer").prefault({}),
});

/** `watcher`, pending. */
export const pendingWatcherSchema = pending("watcher", watcherConfigSchema);
/** `xzepr`, pending. */
export const pendingXzeprSchema = pending("xzepr", xzeprConfigSchema);
