/**
 * The configuration slices the runtime itself reads: `agent.mentions` (how `@file` and
 * `@url:` mentions are loaded) and `agent.chat` (the modes a session starts in).
 */
import { oneOf, positiveInteger } from "@xzatoma/core/config";
import { z } from "zod";

const MiB = 1024 * 1024;

/** `agent.mentions`: limits of `@file` and `@url:` mentions. */
export const mentionsConfigSchema = z.strictObject({
  max_file_size: positiveInteger().default(10 * MiB),
  url_cache_ttl_seconds: positiveInteger().default(86_400),
  max_urls_per_request: positiveInteger().default(10),
});

/** `agent.mentions` after defaults. */
export type MentionsConfig = z.output<typeof mentionsConfigSchema>;

/** Chat modes: `planning` offers read-only tools, `write` all of them. */
export const CHAT_MODES = ["planning", "write"] as const;
/** Safety modes: `safe` asks before risky actions, `yolo` does not. */
export const SAFETY_MODES = ["safe", "yolo"] as const;

/** `agent.chat`: the modes a session starts in (default: planning, safe). */
export const chatConfigSchema = z.strictObject({
  default_mode: oneOf(CHAT_MODES).default("planning"),
  default_safety: oneOf(SAFETY_MODES).default("safe"),
});

/** `agent.chat` after defaults. */
export type ChatConfig = z.output<typeof chatConfigSchema>;
