import { z } from "zod";

/** One hook: a shell command, as Claude Code's `hooks` settings spell it. */
const hookCommandSchema = z.strictObject({
  type: z.literal("command").default("command"),
  /** Run with `sh -c`; the event arrives as JSON on standard input. */
  command: z.string().min(1),
  /** Seconds before the hook is stopped (a `PreToolUse` hook that times out blocks). */
  timeout: z.number().int().min(1).max(600).default(60),
});

/** Hooks of one event for the tools whose name the `matcher` regular expression matches. */
const hookMatcherSchema = z.strictObject({
  /** A regular expression over the tool's name; empty or absent matches every tool. */
  matcher: z
    .string()
    .default("")
    .refine((text) => {
      try {
        new RegExp(text);
        return true;
      } catch {
        return false;
      }
    }, "not a valid regular expression"),
  hooks: z.array(hookCommandSchema).min(1),
});

/**
 * `hooks`: commands XZatoma runs around tool calls (`PreToolUse`, `PostToolUse`), in the
 * shape of Claude Code's settings so existing hook scripts move over. Hooks are code: a
 * project's configuration sets them only once trusted.
 */
export const hooksConfigSchema = z.strictObject({
  PreToolUse: z.array(hookMatcherSchema).default([]),
  PostToolUse: z.array(hookMatcherSchema).default([]),
});

/** The `hooks` section after defaults. */
export type HooksConfig = z.output<typeof hooksConfigSchema>;
/** One configured hook command. */
export type HookCommand = z.output<typeof hookCommandSchema>;
