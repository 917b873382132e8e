/**
 * Pruning: hides the oldest messages from the model until the conversation fits its
 * target, in three passes, each resuming where it stopped last time:
 *
 * 1. tool exchanges (an assistant tool call with all its results) before the last
 *    `minRetainTurns` turns, oldest first;
 * 2. then user and assistant text before those turns, oldest first;
 * 3. only if still over: tool exchanges inside the retained turns, oldest first, never
 *    the latest one (a long autonomous run is a single turn).
 *
 * System messages, the first user message and pinned messages are never pruned; the latest
 * user request and the results of kept tools (`keptTools`) are not pruned while they are
 * current. Everything dropped is accounted in the one summary record.
 */
import type { Message } from "./message.js";
import {
  currentTokens,
  ensureSummary,
  refreshSummary,
  retentionBoundary,
  type ConversationState,
  type Entry,
  type Group,
} from "./state.js";
import { addToSummary, type SummaryStats } from "./summary.js";

/** What one prune did. */
export interface PruneReport {
  /** The messages hidden by this prune, in conversation order. */
  readonly dropped: readonly Message[];
  /** Tool calls among `dropped`. */
  readonly toolCalls: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** The summary text now in force. */
  readonly summary: string;
  /** Whether the conversation reached the prune target; `false` when what must be kept is larger. */
  readonly withinTarget: boolean;
  /** Whether tool exchanges inside the last `minRetainTurns` turns had to be dropped too. */
  readonly trimmedRetainedTurns: boolean;
}

function isDroppableHead(entry: Entry | undefined, kind: Group["kind"]): entry is Entry {
  return (
    entry !== undefined &&
    !entry.pruned &&
    entry.group.kind === kind &&
    !entry.group.keep &&
    !entry.group.hold &&
    entry.group.members[0] === entry
  );
}

function dropGroup(
  state: ConversationState,
  group: Group,
  stats: SummaryStats,
  dropped: Entry[],
): void {
  group.pruned = true;
  for (const member of group.members) {
    if (member.pruned) continue;
    member.pruned = true;
    state.visibleTokens -= member.tokens;
    state.prunedMessages += 1;
    addToSummary(stats, member.message, member.turn);
    dropped.push(member);
  }
}

type Cursor = keyof ConversationState["cursors"];

/** Drops groups of `kind` from the pass's cursor up to `end` until `target` is met. */
function pass(
  state: ConversationState,
  cursor: Cursor,
  kind: Group["kind"],
  end: number,
  target: number,
  dropped: Entry[],
): boolean {
  const stats = ensureSummary(state).record.stats;
  const cursors = state.cursors;
  let any = false;
  while (cursors[cursor] < end && currentTokens(state) > target) {
    const entry = state.entries[cursors[cursor]];
    cursors[cursor] += 1;
    if (isDroppableHead(entry, kind)) {
      dropGroup(state, entry.group, stats, dropped);
      any = true;
    }
  }
  return any;
}

/**
 * Drops groups released since the last prune (an older plan progress, an earlier request):
 * the passes' cursors may have gone past them while they were held. Text goes only before
 * `end` (the retained turns); an exchange before `exchangeEnd` (never the latest one).
 */
function dropReleased(
  state: ConversationState,
  end: number,
  exchangeEnd: number,
  target: number,
  dropped: Entry[],
): void {
  if (state.released.length === 0) return;
  const stats = ensureSummary(state).record.stats;
  const waiting: Group[] = [];
  for (const group of state.released) {
    const head = group.members[0];
    if (group.pruned || group.hold || group.keep || !head) continue;
    const before = group.kind === "exchange" ? exchangeEnd : end;
    if (head.index < before && currentTokens(state) > target)
      dropGroup(state, group, stats, dropped);
    else waiting.push(group);
  }
  state.released = waiting;
}

/** How {@link pruneToTarget} may reach its target. */
export interface PruneScope {
  /** Drop up to the start of the last `turns` turns instead of `minRetainTurns`. */
  readonly turns?: number;
  /** Whether tool exchanges inside the retained turns may go too (default true). */
  readonly retained?: boolean;
}

function boundaryOf(state: ConversationState, scope: PruneScope): number {
  if (scope.turns === undefined) return retentionBoundary(state);
  const starts = state.turnStarts;
  return starts[Math.max(0, starts.length - scope.turns)] ?? 0;
}

/**
 * Prunes until the conversation is at or below `target` tokens (or nothing more may be
 * dropped). Returns undefined when nothing was dropped.
 */
export function pruneToTarget(
  state: ConversationState,
  target: number,
  scope: PruneScope = {},
): PruneReport | undefined {
  const tokensBefore = currentTokens(state);
  if (tokensBefore <= target) return undefined;
  const hadSummary = state.summary !== undefined;
  const dropped: Entry[] = [];
  let trimmedRetainedTurns = false;
  // A second round only when the grown summary pushed the total back over the target.
  for (let round = 0; round < 3; round += 1) {
    const count = dropped.length;
    const boundary = boundaryOf(state, scope);
    const exchangeEnd = scope.retained === false ? boundary : state.lastExchangeHead;
    dropReleased(state, boundary, exchangeEnd, target, dropped);
    pass(state, "exchanges", "exchange", boundary, target, dropped);
    pass(state, "texts", "text", boundary, target, dropped);
    if (scope.retained !== false) {
      state.cursors.retained = Math.max(state.cursors.retained, boundary);
      if (pass(state, "retained", "exchange", state.lastExchangeHead, target, dropped))
        trimmedRetainedTurns = true;
    }
    if (dropped.length === count) break;
    refreshSummary(state);
    if (currentTokens(state) <= target) break;
  }
  if (dropped.length === 0) {
    if (!hadSummary) state.summary = undefined;
    return undefined;
  }
  state.visible = state.visible.filter((entry) => !entry.pruned);
  dropped.sort((a, b) => a.index - b.index);
  const messages = dropped.map((entry) => entry.message);
  let toolCalls = 0;
  for (const message of messages)
    if (message.role === "assistant") toolCalls += message.toolCalls.length;
  const tokensAfter = currentTokens(state);
  return {
    dropped: messages,
    toolCalls,
    tokensBefore,
    tokensAfter,
    summary: state.summary?.message.content ?? "",
    withinTarget: tokensAfter <= target,
    trimmedRetainedTurns,
  };
}
