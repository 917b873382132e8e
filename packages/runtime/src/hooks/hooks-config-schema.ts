// The zod schema of the `hooks` section, exported from `@xzatoma/runtime/config`. What runs
// hooks needs only `hooks-config.ts`, which loads no zod.
import { z } from "zod";
import { isHookMatcher } from "./hook-matcher.js";

/** One hook: a shell command, as Claude Code's `hooks` settings spell it. */
const hookCommandSchema = z.strictObject({
  type: z.literal("command").default("command"),
  /** Run with `sh -c`; the event arrives as JSON on standard input. */
  command: z.string().min(1),
  /** Seconds before the hook is stopped (a `PreToolUse` hook that times out blocks). */
  timeout: z.number().int().min(1).max(600).default(60),
});

/**
 * A matcher: a regular expression over what the event is about (a tool's name for the tool
 * events, the source of `SessionStart`, the trigger of `PreCompact`, ...), matched whole.
 * Empty, absent or `*` matches everything.
 */
const matcherSchema = z
  .string()
  .refine(isHookMatcher, "not a valid regular expression")
  .default("");

/** Hooks of one event for what the `matcher` matches. */
const hookMatcherSchema = z.strictObject({
  matcher: matcherSchema,
  hooks: z.array(hookCommandSchema).min(1),
});

const eventSchema = z.array(hookMatcherSchema).default([]);

/**
 * `hooks`: commands XZatoma runs at points of a session (tool calls, prompts, the end of a
 * response, subagents, compaction, notifications, a session's start and end), in the shape
 * of Claude Code's settings so existing hook scripts move over. Hooks are code: a project's
 * configuration sets them only once trusted.
 */
export const hooksConfigSchema = z.strictObject({
  SessionStart: eventSchema,
  UserPromptSubmit: eventSchema,
  PreToolUse: eventSchema,
  PostToolUse: eventSchema,
  Notification: eventSchema,
  SubagentStart: eventSchema,
  SubagentStop: eventSchema,
  PreCompact: eventSchema,
  Stop: eventSchema,
  SessionEnd: eventSchema,
});

/** The `hooks` section after defaults. */
export type HooksConfig = z.output<typeof hooksConfigSchema>;
/** One configured hook command. */
export type HookCommand = z.output<typeof hookCommandSchema>;
