/**
 * The internal state of a conversation and its append-time bookkeeping. Everything here
 * is O(1) per message: estimates are counted once, totals are kept running.
 */
import { ConversationFormatError } from "./errors.js";
import { systemMessage, type Message, type SystemMessage } from "./message.js";
import type { ResolvedConversationOptions } from "./options.js";
import type { ContextLevel } from "./status.js";
import { createSummaryStats, renderSummary, type SummaryRecord } from "./summary.js";
import { countMessageTokens } from "./token-counter.js";

/**
 * Messages pruned together. `exchange`: an assistant message with tool calls and all
 * their results (providers reject one without the other); `text`: a user or plain
 * assistant message; `system`: never pruned.
 */
export interface Group {
  readonly kind: "system" | "text" | "exchange";
  readonly members: Entry[];
  /** Never pruned: system messages, the first user message, pinned messages. */
  keep: boolean;
  /**
   * Kept while it is current: the latest user request, the latest result of a tool kept
   * `latest` (a plan's progress), every result of a tool kept `all` (an activated skill).
   * Released (and prunable again) when a newer one replaces it.
   */
  hold: boolean;
  pruned: boolean;
}

/** One appended message with its cached estimate. */
export interface Entry {
  readonly index: number;
  readonly message: Message;
  readonly pinned: boolean;
  pruned: boolean;
  /** The estimate of the message with the conversation's counter, counted once. */
  readonly tokens: number;
  /** The turn: the number of user messages up to and including this one. */
  readonly turn: number;
  readonly group: Group;
}

/** The summary record with its rendered message and estimate. */
export interface SummaryState {
  readonly record: SummaryRecord;
  message: SystemMessage;
  tokens: number;
}

export interface ConversationState {
  readonly options: ResolvedConversationOptions;
  readonly entries: Entry[];
  /** The entries not pruned, in order (the summary is placed at read time). */
  visible: Entry[];
  /** How many entries at the start are system messages; the summary goes after them. */
  leadingSystem: number;
  /** The index of each user message: where each turn starts. */
  readonly turnStarts: number[];
  readonly callGroups: Map<string, Group>;
  /** The index of the latest assistant message with tool calls, -1 if none. */
  lastExchangeHead: number;
  /** Estimates of the visible entries and the summary, kept running. */
  visibleTokens: number;
  summary: SummaryState | undefined;
  prunedMessages: number;
  /** Where each pruning pass resumes: each only moves forward, so pruning is amortised O(1). */
  readonly cursors: { exchanges: number; texts: number; retained: number };
  /** Provider-reported input tokens of the last request (`reservedTokens` before any). */
  reported: number;
  /** `visibleTokens` when the request of `reported` was built. */
  reportedEstimate: number;
  usageReported: boolean;
  /** `visibleTokens` at the last `forModel()`. */
  sentEstimate: number | undefined;
  /** The level last reported to the caller. */
  level: ContextLevel;
  /** The group of the latest user message, held until the next one. */
  lastUser: Group | undefined;
  /** Per tool kept `latest`: the group holding its latest result. */
  readonly held: Map<string, Group>;
  /** Groups no longer held that a pass's cursor may have passed already; the next prune drops them. */
  released: Group[];
}

export function createState(options: ResolvedConversationOptions): ConversationState {
  return {
    options,
    entries: [],
    visible: [],
    leadingSystem: 0,
    turnStarts: [],
    callGroups: new Map(),
    lastExchangeHead: -1,
    visibleTokens: 0,
    summary: undefined,
    prunedMessages: 0,
    cursors: { exchanges: 0, texts: 0, retained: 0 },
    reported: options.reservedTokens,
    reportedEstimate: 0,
    usageReported: false,
    sentEstimate: undefined,
    level: "ok",
    lastUser: undefined,
    held: new Map(),
    released: [],
  };
}

/** Tokens of the next request: the last report plus the estimated change since. */
export function currentTokens(state: ConversationState): number {
  return Math.max(0, state.reported + state.visibleTokens - state.reportedEstimate);
}

/** The index where the last `minRetainTurns` turns start (0 when there are fewer). */
export function retentionBoundary(state: ConversationState): number {
  const starts = state.turnStarts;
  return starts[Math.max(0, starts.length - state.options.minRetainTurns)] ?? 0;
}

function groupFor(state: ConversationState, message: Message, index: number): Group {
  if (message.role === "tool") {
    const existing = state.callGroups.get(message.toolCallId);
    if (existing) return existing;
    // A result without a known call stands alone.
    const orphan: Group = {
      kind: "exchange",
      members: [],
      keep: false,
      hold: false,
      pruned: false,
    };
    state.callGroups.set(message.toolCallId, orphan);
    return orphan;
  }
  if (message.role === "assistant" && message.toolCalls.length > 0) {
    const group: Group = {
      kind: "exchange",
      members: [],
      keep: false,
      hold: false,
      pruned: false,
    };
    for (const call of message.toolCalls) state.callGroups.set(call.id, group);
    state.lastExchangeHead = index;
    return group;
  }
  if (message.role === "system")
    return { kind: "system", members: [], keep: true, hold: false, pruned: false };
  const first = message.role === "user" && state.turnStarts.length === 0;
  return { kind: "text", members: [], keep: first, hold: false, pruned: false };
}

function release(state: ConversationState, group: Group | undefined, next: Group): void {
  if (!group || group === next || !group.hold) return;
  group.hold = false;
  if (!group.pruned && !group.keep) state.released.push(group);
}

/**
 * Holds what must stay verbatim while it is current: the latest user request, and the
 * results of the tools `keptTools` names (`all`: every result; `latest`: the newest, the
 * one before is released).
 */
function holdCurrent(state: ConversationState, message: Message, group: Group): void {
  if (group.pruned) return;
  if (message.role === "user") {
    release(state, state.lastUser, group);
    group.hold = true;
    state.lastUser = group;
    return;
  }
  if (message.role !== "tool") return;
  const kept = state.options.keptTools[message.toolName];
  if (kept === undefined) return;
  if (kept === "latest") {
    release(state, state.held.get(message.toolName), group);
    state.held.set(message.toolName, group);
  }
  group.hold = true;
}

/**
 * Appends a message. A tool result whose call was already pruned is pruned at once
 * (`entry.pruned`), so the model never sees a result without its call.
 */
export function addEntry(state: ConversationState, message: Message, pinned: boolean): Entry {
  const index = state.entries.length;
  const group = groupFor(state, message, index);
  if (pinned && !group.pruned) group.keep = true;
  const turn = state.turnStarts.length + (message.role === "user" ? 1 : 0);
  const tokens = countMessageTokens(message, state.options.tokenizer);
  const entry: Entry = { index, message, pinned, pruned: group.pruned, tokens, turn, group };
  group.members.push(entry);
  state.entries.push(entry);
  holdCurrent(state, message, group);
  if (message.role === "user") state.turnStarts.push(index);
  if (message.role === "system" && index === state.leadingSystem) state.leadingSystem += 1;
  if (entry.pruned) {
    state.prunedMessages += 1;
  } else {
    state.visible.push(entry);
    state.visibleTokens += tokens;
  }
  return entry;
}

/** Appends a restored message with its stored `pruned` flag, checking the flag is consistent. */
export function loadEntry(
  state: ConversationState,
  message: Message,
  pinned: boolean,
  pruned: boolean,
): Entry {
  const entry = addEntry(state, message, pinned);
  if (entry.pruned === pruned) return entry;
  const field = `entries[${entry.index}].pruned`;
  const head = entry.group.members[0];
  if (!pruned && head)
    throw new ConversationFormatError(
      field,
      `is false but its tool call at entries[${head.index}] is pruned`,
    );
  if (entry.group.keep)
    throw new ConversationFormatError(field, "is true for a system, pinned or first user message");
  if (head !== entry)
    throw new ConversationFormatError(
      field,
      `is true but its tool call at entries[${head?.index ?? 0}] is not`,
    );
  entry.pruned = true;
  entry.group.pruned = true;
  state.visible.pop();
  state.visibleTokens -= entry.tokens;
  state.prunedMessages += 1;
  return entry;
}

/** The summary, created empty when missing. */
export function ensureSummary(state: ConversationState): SummaryState {
  state.summary ??= {
    record: { modelText: undefined, stats: createSummaryStats() },
    message: systemMessage(""),
    tokens: 0,
  };
  return state.summary;
}

/** Re-renders the summary message and updates the running total with its new estimate. */
export function refreshSummary(state: ConversationState): void {
  const summary = state.summary;
  if (!summary) return;
  const text = renderSummary(summary.record);
  if (text === summary.message.content && summary.tokens > 0) return;
  const message = systemMessage(text);
  const tokens = countMessageTokens(message, state.options.tokenizer);
  state.visibleTokens += tokens - summary.tokens;
  summary.message = message;
  summary.tokens = tokens;
}
