/**
 * Configuration sections XZatoma accepts but nothing builds yet (none today). Their values
 * are validated like every other key (so a file written for a later version is checked today), and a front end warns for each key set in them that it
 * has no effect yet, instead of calling it unknown.
 */
import { z } from "zod";

/** One section that is accepted and validated but read by nothing yet. */
export interface PendingConfigSection {
  /** The key path of the section (`watcher`); every key below it is pending too. */
  readonly keyPath: string;
  /** Which later work makes it take effect, in a few words. */
  readonly reason: string;
}

/** The key paths of {@link PENDING_CONFIG_SECTIONS} and why each has no effect yet. */
export const PENDING_CONFIG_SECTIONS: readonly PendingConfigSection[] = [];

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
