import type { HandledResult } from "../index.js";
import watcherManifest from "../../package.json" with { type: "json" };
import { redactSecrets } from "@xzatoma/runtime";
import type { XzeprConfig } from "@xzatoma/runtime/sections";
import { createXzeprClient, XzeprApiError, type XzeprClientOptions } from "@xzatoma/xzepr";

/** Posts each result to XZepr; `signal` aborts the call (the service's stop deadline). */
export type XzeprReporter = (result: HandledResult, signal?: AbortSignal) => Promise<void>;

/**
 * The version of `@xzatoma/watcher`, from its package.json (the same file from the sources
 * and from a build; a bundle holds it as it was at build time): the `release` results carry
 * when the front end names none.
 */
export function watcherPackageVersion(): string {
  return watcherManifest.version;
}

/**
 * Reports each plan run to XZepr as an event of the configured receiver (`xzepr.receiver`,
 * found by name and type on the first report, created when missing): the run's status as
 * `success`, the summary as `description`, and the trigger, stop reason, duration, usage and
 * answer in `payload`, and `release` (the front end's version, default
 * {@link watcherPackageVersion}). Every string sent is redacted (`redactSecrets`). A report
 * that fails rejects: the watcher service tries it again with doubling waits and then gives
 * it up and counts it (`xzatoma.watcher.xzepr.reports.dropped`); the result event on Kafka is
 * the record that counts.
 */
export function createXzeprReporter(
  config: XzeprConfig,
  client: XzeprClientOptions,
  release: string = watcherPackageVersion(),
): XzeprReporter {
  const xzepr = createXzeprClient({ redact: (text) => redactSecrets(text), ...client });
  let receiver: Promise<string> | undefined;
  const receiverId = (signal?: AbortSignal) => {
    receiver ??= xzepr
      .findOrCreateReceiver(
        {
          name: config.receiver.name,
          type: config.receiver.type,
          version: config.receiver.version,
          description: "Results of plans run by the XZatoma watcher",
          schema: { type: "object" },
        },
        signal ? { signal } : undefined,
      )
      .then((found) => found.id)
      .catch((error: unknown) => {
        // Try again on the next report.
        receiver = undefined;
        throw error;
      });
    return receiver;
  };
  const post = (result: HandledResult, eventReceiverId: string, signal?: AbortSignal) =>
    xzepr.createEvent(
      {
        name: config.receiver.type,
        version: config.receiver.version,
        release,
        platform_id: "xzatoma",
        package: "xzatoma-watcher",
        description: result.summary,
        payload: {
          status: result.status,
          trigger: result.trigger,
          stopReason: result.report.stopReason,
          durationMs: result.durationMs,
          usage: result.report.usage ?? {},
          answer: result.report.text,
          ...(result.report.error !== undefined ? { error: result.report.error } : {}),
        },
        success: result.status === "completed",
        event_receiver_id: eventReceiverId,
      },
      signal ? { signal } : undefined,
    );
  return async (result, signal) => {
    try {
      await post(result, await receiverId(signal), signal);
    } catch (error) {
      // The receiver found earlier is gone (deleted, or an XZepr that lost its data): find
      // or create it again, once.
      if (!(error instanceof XzeprApiError && error.status === 404)) throw error;
      receiver = undefined;
      await post(result, await receiverId(signal), signal);
    }
  };
}
