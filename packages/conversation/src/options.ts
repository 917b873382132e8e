import { createHeuristicCounter, type TokenCounter } from "./token-counter.js";

/**
 * Options of {@link createConversation}: the `agent.conversation` configuration keys
 * (`maxTokens`, `minRetainTurns`, `pruneThreshold`) plus the status thresholds. Every
 * ratio is a fraction of `maxTokens`.
 */
export interface ConversationOptions {
  /**
   * The token budget of a request: the model's context window minus what is reserved
   * for its answer (`maxOutputTokens`). A positive integer.
   */
  readonly maxTokens: number;
  /** Prune when the conversation passes this fraction of `maxTokens`; `false` never prunes by itself. Default 0.8. */
  readonly pruneThreshold?: number | false;
  /**
   * A prune drops messages until the conversation is at or below this fraction of
   * `maxTokens`, so prunes come in batches rather than on every append (and provider
   * prompt caches survive longer). Default 0.75 × `pruneThreshold` (0.6).
   */
  readonly pruneTarget?: number;
  /** The last turns kept whole; a turn starts at a user message. An integer of at least 1. Default 5. */
  readonly minRetainTurns?: number;
  /** The status becomes `warning` at this fraction of `maxTokens`. Default 0.7. */
  readonly warningThreshold?: number;
  /** The status becomes `critical` at this fraction of `maxTokens`. Default 0.9. */
  readonly criticalThreshold?: number;
  /**
   * Tokens every request spends outside the messages (tool definitions), counted until
   * the first provider-reported usage, which includes them. Default 0.
   */
  readonly reservedTokens?: number;
  /** Counts the tokens of new messages. Default: the character heuristic. */
  readonly tokenizer?: TokenCounter;
  /**
   * Tools whose results are kept verbatim through every prune and summary: `all` keeps
   * every result (an activated skill's instructions), `latest` only the newest (a plan's
   * progress: the older ones become prunable). Default none.
   */
  readonly keptTools?: Readonly<Record<string, KeptTool>>;
}

/** How the results of a tool in `keptTools` are kept. */
export type KeptTool = "all" | "latest";

/** {@link ConversationOptions} with every default applied. */
export interface ResolvedConversationOptions {
  readonly maxTokens: number;
  readonly pruneThreshold: number | false;
  readonly pruneTarget: number;
  readonly minRetainTurns: number;
  readonly warningThreshold: number;
  readonly criticalThreshold: number;
  readonly reservedTokens: number;
  readonly tokenizer: TokenCounter;
  readonly keptTools: Readonly<Record<string, KeptTool>>;
}

/** The defaults of {@link ConversationOptions}. */
export const CONVERSATION_DEFAULTS = {
  pruneThreshold: 0.8,
  pruneTargetFactor: 0.75,
  minRetainTurns: 5,
  warningThreshold: 0.7,
  criticalThreshold: 0.9,
  reservedTokens: 0,
} as const;

function fail(name: string, expected: string, value: unknown): never {
  throw new RangeError(
    `Conversation option ${name} must be ${expected} (got ${JSON.stringify(value) ?? String(value)}).`,
  );
}

function fraction(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value > 0 && value <= 1))
    fail(name, "a number in (0, 1]", value);
  return value;
}

function integer(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min)
    fail(name, `an integer of at least ${min}`, value);
  return value;
}

/** Applies the defaults and validates; throws a `RangeError` naming the bad option. */
export function resolveConversationOptions(
  options: ConversationOptions,
): ResolvedConversationOptions {
  if (typeof options !== "object" || options === null)
    throw new TypeError("Conversation options must be an object with at least maxTokens.");
  const maxTokens = integer("maxTokens", options.maxTokens ?? NaN, 0, 1);
  const pruneThreshold =
    options.pruneThreshold === false
      ? false
      : fraction("pruneThreshold", options.pruneThreshold, CONVERSATION_DEFAULTS.pruneThreshold);
  const thresholdForTarget =
    pruneThreshold === false ? CONVERSATION_DEFAULTS.pruneThreshold : pruneThreshold;
  const pruneTarget = fraction(
    "pruneTarget",
    options.pruneTarget,
    Number((thresholdForTarget * CONVERSATION_DEFAULTS.pruneTargetFactor).toFixed(6)),
  );
  if (pruneThreshold !== false && pruneTarget > pruneThreshold)
    fail("pruneTarget", `at most pruneThreshold (${pruneThreshold})`, pruneTarget);
  const warningThreshold = fraction(
    "warningThreshold",
    options.warningThreshold,
    CONVERSATION_DEFAULTS.warningThreshold,
  );
  const criticalThreshold = fraction(
    "criticalThreshold",
    options.criticalThreshold,
    CONVERSATION_DEFAULTS.criticalThreshold,
  );
  if (warningThreshold > criticalThreshold)
    fail("warningThreshold", `at most criticalThreshold (${criticalThreshold})`, warningThreshold);
  const reservedTokens = integer(
    "reservedTokens",
    options.reservedTokens,
    CONVERSATION_DEFAULTS.reservedTokens,
    0,
  );
  if (reservedTokens >= maxTokens)
    fail("reservedTokens", `below maxTokens (${maxTokens})`, reservedTokens);
  const tokenizer = options.tokenizer ?? createHeuristicCounter();
  if (typeof tokenizer.count !== "function" || typeof tokenizer.name !== "string")
    fail("tokenizer", "a TokenCounter ({ name, count(text) })", "…");
  return {
    maxTokens,
    pruneThreshold,
    pruneTarget,
    minRetainTurns: integer(
      "minRetainTurns",
      options.minRetainTurns,
      CONVERSATION_DEFAULTS.minRetainTurns,
      1,
    ),
    warningThreshold,
    criticalThreshold,
    reservedTokens,
    tokenizer,
    keptTools: keptToolsOption(options.keptTools),
  };
}

function keptToolsOption(value: unknown): Readonly<Record<string, KeptTool>> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value))
    fail("keptTools", 'a mapping of tool names to "all" or "latest"', value);
  const kept: Record<string, KeptTool> = {};
  for (const [name, how] of Object.entries(value)) {
    if (how !== "all" && how !== "latest") fail(`keptTools.${name}`, '"all" or "latest"', how);
    kept[name] = how;
  }
  return kept;
}
