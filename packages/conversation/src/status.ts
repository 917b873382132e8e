/** How full the context window is: `ok`, `warning` (past `warningThreshold`) or `critical` (past `criticalThreshold`). */
export type ContextLevel = "ok" | "warning" | "critical";

/** Where the conversation stands against its budget. */
export interface ContextStatus {
  /** Tokens the next request will send: the last provider-reported usage plus estimates of what changed since. */
  readonly tokens: number;
  readonly maxTokens: number;
  /** `tokens / maxTokens`. */
  readonly ratio: number;
  readonly level: ContextLevel;
  /** Whether `tokens` rests on a provider-reported usage (otherwise it is all estimate). */
  readonly reported: boolean;
  /** Messages the model sees, the summary included. */
  readonly visibleMessages: number;
  /** Messages pruned so far (hidden from the model, kept in `entries()`). */
  readonly prunedMessages: number;
  /** The name of the token counter estimating new messages. */
  readonly tokenizer: string;
}

/** A change of {@link ContextLevel}, reported once when a threshold is crossed (either way). */
export interface ContextStatusChange {
  readonly previous: ContextLevel;
  readonly level: ContextLevel;
  readonly status: ContextStatus;
}

/** The level of a ratio against the thresholds. */
export function contextLevel(ratio: number, warning: number, critical: number): ContextLevel {
  if (ratio >= critical) return "critical";
  if (ratio >= warning) return "warning";
  return "ok";
}
