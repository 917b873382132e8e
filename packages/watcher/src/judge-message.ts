/**
 * The one judgement of a message: what the watcher does with it before any run, whether the
 * service, `xzatoma-watcher check-event` or `run-event` asks. Dead-letter what cannot be used,
 * filter what the filters or the generic match turn away, skip what carries nothing to run,
 * and run the rest (a duplicate is the ledger's business, after this).
 */
import type { InboundMessage } from "@xzatoma/xzepr";
import { createEventFilter } from "./event-filter.js";
import { createGenericMatch } from "./generic-match.js";
import { planTaskOf, promptTaskOf, type PlanTask } from "./plan-task.js";
import { triggerOf, type DeadLetterCode, type Trigger } from "./wire.js";
import type { WatcherConfig } from "@xzatoma/runtime/sections";

export type { DeadLetterCode };

/** What the watcher does with one message. */
export type Judgement =
  /** Cannot be used (too large, not an event, an invalid plan): to the dead-letter topic. */
  | {
      readonly verdict: "dead-letter";
      readonly reason: string;
      readonly code: DeadLetterCode;
      readonly trigger?: Trigger;
    }
  /** Turned away by `watcher.filters` or `watcher.generic_match`: committed, nothing published. */
  | { readonly verdict: "filter"; readonly reason: string; readonly trigger: Trigger }
  /** Carries nothing to run (XZepr's receiver and group notices): committed, nothing published. */
  | { readonly verdict: "skip"; readonly reason: string; readonly trigger: Trigger }
  /** Runs `task` (unless the ledger knows the event). */
  | { readonly verdict: "run"; readonly trigger: Trigger; readonly task: PlanTask };

/** Judges one message; see {@link createMessageJudge}. */
export type MessageJudge = (message: InboundMessage) => Judgement;

/** Whether `text` is structured data (a JSON or YAML mapping) rather than prose. */
function looksStructured(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) return true;
  // YAML mappings: a `key:` at the start of a line, before any prose.
  return /^[A-Za-z_][\w-]*:(\s|$)/m.test(trimmed.split("\n", 3).join("\n"));
}

/**
 * The judgement `config` (a resolved watcher section) makes of messages, step by step as
 * docs/explanation/watcher-delivery.md describes: size, decode, filter, find the plan, read it,
 * match. Pure: nothing runs, nothing is published. Throws `EventFilterError` or
 * `GenericMatchError` at once when a filter or a match in `config` is not valid.
 */
export function createMessageJudge(config: WatcherConfig): MessageJudge {
  const generic = config.watcher_type === "generic";
  const filter = createEventFilter({
    successOnly: config.filters.success_only,
    eventTypes: config.filters.event_types,
    ...(config.filters.source_pattern !== undefined
      ? { sourcePattern: config.filters.source_pattern }
      : {}),
    ...(config.filters.platform_id !== undefined ? { platformId: config.filters.platform_id } : {}),
    ...(config.filters.package !== undefined ? { package: config.filters.package } : {}),
    ...(config.filters.api_version !== undefined ? { apiVersion: config.filters.api_version } : {}),
  });
  const match = createGenericMatch({
    ...(config.generic_match.action !== undefined ? { action: config.generic_match.action } : {}),
    ...(config.generic_match.name !== undefined ? { name: config.generic_match.name } : {}),
    ...(config.generic_match.version !== undefined
      ? { version: config.generic_match.version }
      : {}),
  });
  const maxBytes = config.execution.max_message_bytes;

  return (message) => {
    const size = message.value?.byteLength ?? 0;
    if (size > maxBytes) {
      return {
        verdict: "dead-letter",
        code: "too_large",
        reason: `The message is ${size} bytes, over watcher.execution.max_message_bytes (${maxBytes}).`,
      };
    }
    const read = triggerOf(message, { plain: generic });
    if (read.kind === "invalid") {
      return {
        verdict: "dead-letter",
        code: message.value === null ? "tombstone" : "undecodable",
        reason: read.reason,
      };
    }
    const trigger = read.trigger;
    if (!generic) {
      const reason = filter(trigger.filterable);
      if (reason !== undefined) return { verdict: "filter", reason, trigger };
    }
    if (trigger.plan.kind === "none") {
      return { verdict: "skip", reason: "The event carries nothing to run.", trigger };
    }
    if (trigger.plan.kind === "invalid") {
      return { verdict: "dead-letter", code: "no_plan", reason: trigger.plan.reason, trigger };
    }
    const planText = trigger.plan.text;
    let task: PlanTask;
    try {
      task = planTaskOf(planText, `event ${trigger.id}`);
    } catch (error) {
      if (generic || looksStructured(planText)) {
        return {
          verdict: "dead-letter",
          code: "invalid_plan",
          reason: `The plan is not valid: ${error instanceof Error ? error.message : String(error)}`,
          trigger,
        };
      }
      task = promptTaskOf(planText);
    }
    if (generic) {
      const reason = match(task.plan);
      if (reason !== undefined) return { verdict: "filter", reason, trigger };
    }
    return { verdict: "run", trigger, task };
  };
}
