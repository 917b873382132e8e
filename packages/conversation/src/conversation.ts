import type { Message } from "./message.js";
import {
  resolveConversationOptions,
  type ConversationOptions,
  type ResolvedConversationOptions,
} from "./options.js";
import { pruneToTarget, type PruneReport } from "./prune.js";
import {
  serializeState,
  type ParsedConversation,
  type SerializedConversation,
} from "./serialize.js";
import {
  addEntry,
  createState,
  currentTokens,
  ensureSummary,
  loadEntry,
  refreshSummary,
  type ConversationState,
} from "./state.js";
import { contextLevel, type ContextStatus, type ContextStatusChange } from "./status.js";
import { addToSummary, createSummaryStats } from "./summary.js";
import { completeSummary, openStepsOf, type SummaryFacts } from "./summary-facts.js";

/** One message of the whole history, as {@link Conversation.entries} returns it. */
export interface ConversationEntry {
  readonly message: Message;
  /** Appended with `pinned: true`: never pruned. */
  readonly pinned: boolean;
  /** Hidden from the model by pruning; kept for history and replay. */
  readonly pruned: boolean;
  /** Set on the summary record that stands for the pruned messages. */
  readonly summary?: true;
  /** The estimate of this message, counted once when appended. */
  readonly tokens: number;
  /** The turn the message belongs to: the number of user messages up to it (0 before the first). */
  readonly turn: number;
}

/** Options of {@link Conversation.append}. */
export interface AppendOptions {
  /** Never prune this message (the active plan, project instructions). */
  readonly pinned?: boolean;
}

/** What a change did beyond itself, for the caller to turn into events. */
export interface ConversationUpdate {
  /** Set when the change pushed the conversation past `pruneThreshold` and messages were pruned. */
  readonly pruned?: PruneReport;
  /** Set when the context level changed (reported once per crossing). */
  readonly status?: ContextStatusChange;
  /** Set when the appended tool result belongs to a call already pruned: it was hidden at once. */
  readonly hidden?: true;
  /** Set by `replaceSummary` when the text left out facts of the record, which were added. */
  readonly addedFacts?: SummaryFacts;
}

/** Options of {@link Conversation.compact}. */
export interface CompactOptions {
  /** The last turns kept whole; everything before them that may go is pruned. Default 1. */
  readonly keepTurns?: number;
}

/** Provider-reported usage of the last request. */
export interface ReportedUsage {
  /** Input tokens the provider counted: everything `forModel()` returned for that request, plus tool definitions. */
  readonly inputTokens: number;
}

/**
 * A conversation kept inside the model's context window. Append every message; send
 * `forModel()`; report the provider's usage with `recordUsage()`. When the total passes
 * `pruneThreshold`, the oldest messages are hidden from the model (not destroyed) and one
 * summary record stands for them.
 */
export interface Conversation {
  /** The options in force, defaults applied. */
  readonly options: ResolvedConversationOptions;
  /** Appends a message, counting only its own tokens, and prunes if the total passed the threshold. */
  append(message: Message, options?: AppendOptions): ConversationUpdate;
  /**
   * Records the input tokens the provider reported for the request built by the last
   * `forModel()`: they replace the estimate of everything sent; only changes since are estimated.
   * A report of 0 (a provider that reports nothing) is ignored.
   */
  recordUsage(usage: ReportedUsage): ConversationUpdate;
  /** The messages to send: every unpruned message, with the summary after the leading system messages. */
  forModel(): Message[];
  /** The whole history, pruned messages included (flagged), with the summary where the model sees it. */
  entries(): readonly ConversationEntry[];
  /** Where the conversation stands against `maxTokens`. */
  status(): ContextStatus;
  /** Prunes down to `pruneTarget` now (even with `pruneThreshold: false`), if above it. */
  prune(): ConversationUpdate;
  /**
   * Prunes everything before the last `keepTurns` turns that may go, whatever the total
   * (`/compact`). What is kept verbatim stays: system messages (the instructions), pinned
   * messages, the first user message (the goal), the latest request, kept tools' results.
   */
  compact(options?: CompactOptions): ConversationUpdate;
  /** The current summary text, if anything was pruned. */
  summary(): string | undefined;
  /**
   * The facts a summary must carry now: files changed and requests among the messages
   * pruned since the last model-written summary, and the open steps of the latest
   * checklist a kept tool returned (a plan's progress).
   */
  summaryFacts(): SummaryFacts;
  /**
   * Replaces the deterministic summary with `text` written by the model (give it the
   * current `summary()` and the pruned messages). The text is checked for `summaryFacts()`;
   * each one it leaves out is added from the record (reported as `addedFacts`). Later
   * prunes append to it, never stack. Throws when nothing was pruned.
   */
  replaceSummary(text: string): ConversationUpdate;
  /** A JSON-safe snapshot; see `restoreConversation`. */
  toJSON(): SerializedConversation;
}

class ManagedConversation implements Conversation {
  readonly #state: ConversationState;

  constructor(options: ResolvedConversationOptions) {
    this.#state = createState(options);
  }

  get options(): ResolvedConversationOptions {
    return this.#state.options;
  }

  append(message: Message, options: AppendOptions = {}): ConversationUpdate {
    const state = this.#state;
    const entry = addEntry(state, message, options.pinned === true);
    if (!entry.pruned) return this.#settle(false);
    addToSummary(ensureSummary(state).record.stats, message, entry.turn);
    refreshSummary(state);
    return this.#settle(true);
  }

  recordUsage(usage: ReportedUsage): ConversationUpdate {
    const tokens = usage.inputTokens;
    if (typeof tokens !== "number" || !Number.isFinite(tokens) || tokens < 0)
      throw new RangeError(
        `usage.inputTokens must be a non-negative number (got ${String(tokens)}).`,
      );
    if (tokens === 0) return {};
    const state = this.#state;
    state.reported = Math.round(tokens);
    state.reportedEstimate = state.sentEstimate ?? state.visibleTokens;
    state.usageReported = true;
    return this.#settle(false);
  }

  forModel(): Message[] {
    const state = this.#state;
    state.sentEstimate = state.visibleTokens;
    const messages = state.visible.map((entry) => entry.message);
    if (state.summary) messages.splice(state.leadingSystem, 0, state.summary.message);
    return messages;
  }

  entries(): readonly ConversationEntry[] {
    const state = this.#state;
    const entries: ConversationEntry[] = state.entries.map(
      ({ message, pinned, pruned, tokens, turn }) => ({ message, pinned, pruned, tokens, turn }),
    );
    const summary = state.summary;
    if (summary) {
      const turn = state.entries[state.leadingSystem]?.turn ?? 0;
      entries.splice(state.leadingSystem, 0, {
        message: summary.message,
        pinned: false,
        pruned: false,
        summary: true,
        tokens: summary.tokens,
        turn,
      });
    }
    return entries;
  }

  status(): ContextStatus {
    const state = this.#state;
    const { maxTokens, warningThreshold, criticalThreshold, tokenizer } = state.options;
    const tokens = currentTokens(state);
    const ratio = tokens / maxTokens;
    return {
      tokens,
      maxTokens,
      ratio,
      level: contextLevel(ratio, warningThreshold, criticalThreshold),
      reported: state.usageReported,
      visibleMessages: state.visible.length + (state.summary ? 1 : 0),
      prunedMessages: state.prunedMessages,
      tokenizer: tokenizer.name,
    };
  }

  prune(): ConversationUpdate {
    const state = this.#state;
    const pruned = pruneToTarget(state, state.options.pruneTarget * state.options.maxTokens);
    return this.#update(pruned, false);
  }

  compact(options: CompactOptions = {}): ConversationUpdate {
    const turns = options.keepTurns ?? 1;
    if (!Number.isSafeInteger(turns) || turns < 1)
      throw new RangeError(`keepTurns must be an integer of at least 1 (got ${String(turns)}).`);
    const pruned = pruneToTarget(this.#state, -1, { turns, retained: false });
    return this.#update(pruned, false);
  }

  summary(): string | undefined {
    return this.#state.summary?.message.content;
  }

  summaryFacts(): SummaryFacts {
    const state = this.#state;
    const stats = state.summary?.record.stats;
    const openSteps: string[] = [];
    for (const [, group] of state.held) {
      if (group.pruned) continue;
      for (const member of group.members)
        if (member.message.role === "tool" && !member.message.isError)
          openSteps.push(...openStepsOf(member.message.content));
    }
    return {
      filesChanged: stats ? [...stats.changed] : [],
      decisions: stats ? [...stats.requests] : [],
      openSteps,
    };
  }

  replaceSummary(text: string): ConversationUpdate {
    const summary = this.#state.summary;
    if (!summary)
      throw new Error("Nothing has been pruned yet, so there is no summary to replace.");
    if (typeof text !== "string" || text.trim() === "")
      throw new RangeError("The replacement summary is empty.");
    const completed = completeSummary(text.trim(), this.summaryFacts());
    summary.record.modelText = completed.text;
    summary.record.stats = createSummaryStats();
    refreshSummary(this.#state);
    const update = this.#settle(false);
    const added = completed.added;
    const any = added.filesChanged.length + added.decisions.length + added.openSteps.length > 0;
    return any ? { ...update, addedFacts: added } : update;
  }

  toJSON(): SerializedConversation {
    return serializeState(this.#state);
  }

  /** Loads restored entries and summary; see `restoreConversation`. */
  load(parsed: ParsedConversation): void {
    const state = this.#state;
    for (const entry of parsed.entries) loadEntry(state, entry.message, entry.pinned, entry.pruned);
    if (parsed.summary || state.prunedMessages > 0) {
      const summary = ensureSummary(state);
      if (parsed.summary) Object.assign(summary.record, parsed.summary);
      else
        for (const entry of state.entries)
          if (entry.pruned) addToSummary(summary.record.stats, entry.message, entry.turn);
      refreshSummary(state);
    }
    if (parsed.usage && parsed.tokenizer === state.options.tokenizer.name) {
      state.reported = parsed.usage.inputTokens;
      state.reportedEstimate = parsed.usage.estimate;
      state.usageReported = true;
    }
    state.level = parsed.level;
  }

  #settle(hidden: boolean): ConversationUpdate {
    const state = this.#state;
    const { pruneThreshold, pruneTarget, maxTokens } = state.options;
    const pruned =
      pruneThreshold !== false && currentTokens(state) > pruneThreshold * maxTokens
        ? pruneToTarget(state, pruneTarget * maxTokens)
        : undefined;
    return this.#update(pruned, hidden);
  }

  #update(pruned: PruneReport | undefined, hidden: boolean): ConversationUpdate {
    const state = this.#state;
    const current = this.status();
    let status: ContextStatusChange | undefined;
    if (current.level !== state.level) {
      status = { previous: state.level, level: current.level, status: current };
      state.level = current.level;
    }
    return {
      ...(pruned ? { pruned } : {}),
      ...(status ? { status } : {}),
      ...(hidden ? { hidden: true as const } : {}),
    };
  }
}

/**
 * Creates an empty conversation. Throws a `RangeError` naming the bad option.
 *
 * @example
 * const conversation = createConversation({
 *   maxTokens: 128_000 - 16_000, // context window minus maxOutputTokens
 *   tokenizer: await createTokenCounter("gpt-4o"),
 * });
 * conversation.append(systemMessage(prompt));
 * const { pruned, status } = conversation.append(userMessage(input));
 */
export function createConversation(options: ConversationOptions): Conversation {
  return new ManagedConversation(resolveConversationOptions(options));
}

/** Creates a conversation from parsed serialised data (for `restoreConversation`). */
export function loadConversation(
  parsed: ParsedConversation,
  options: ConversationOptions,
): Conversation {
  const conversation = new ManagedConversation(resolveConversationOptions(options));
  conversation.load(parsed);
  return conversation;
}
