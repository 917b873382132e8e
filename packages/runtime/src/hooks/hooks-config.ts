/**
 * The `hooks` section as the runtime reads it: its events, the empty section and the lookup
 * of the hooks that apply. Its zod schema is `hooks-config-schema.ts`
 * (`@xzatoma/runtime/config`); this file needs only the schema's types, so running hooks loads
 * no zod.
 */
import type { HookCommand, HooksConfig } from "./hooks-config-schema.js";

export type { HookCommand, HooksConfig } from "./hooks-config-schema.js";

/** The events hooks run on, in the order of a session's life. */
export const HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "Notification",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "Stop",
  "SessionEnd",
] as const;

/** One of {@link HOOK_EVENTS}. */
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** The matchers of one event. */
export type HookMatchers = HooksConfig[HookEventName];

/** No hooks at all. */
export const NO_HOOKS: HooksConfig = {
  SessionStart: [],
  UserPromptSubmit: [],
  PreToolUse: [],
  PostToolUse: [],
  Notification: [],
  SubagentStart: [],
  SubagentStop: [],
  PreCompact: [],
  Stop: [],
  SessionEnd: [],
};

/**
 * The hook commands of `entries` whose matcher accepts `subject`. An event without a subject
 * (`UserPromptSubmit`, `Stop`) ignores matchers, as Claude Code does.
 */
export function matchingHooks(entries: HookMatchers, subject: string | undefined): HookCommand[] {
  return entries
    .filter(
      (entry) =>
        subject === undefined ||
        entry.matcher === "" ||
        entry.matcher === "*" ||
        new RegExp(`^(?:${entry.matcher})$`).test(subject),
    )
    .flatMap((entry) => entry.hooks);
}

/**
 * The matchers configured for `event`. Each event's key is read by name (not by index), so
 * the check that every configuration key is read by some code sees each one.
 */
export function hooksOf(hooks: HooksConfig, event: HookEventName): HookMatchers {
  switch (event) {
    case "SessionStart":
      return hooks.SessionStart;
    case "UserPromptSubmit":
      return hooks.UserPromptSubmit;
    case "PreToolUse":
      return hooks.PreToolUse;
    case "PostToolUse":
      return hooks.PostToolUse;
    case "Notification":
      return hooks.Notification;
    case "SubagentStart":
      return hooks.SubagentStart;
    case "SubagentStop":
      return hooks.SubagentStop;
    case "PreCompact":
      return hooks.PreCompact;
    case "Stop":
      return hooks.Stop;
    case "SessionEnd":
      return hooks.SessionEnd;
  }
}
