import type { Message } from "./message.js";
import { pathsInToolInput } from "./tool-paths.js";

/** Tool calls of one tool among pruned messages. */
export interface ToolTally {
  calls: number;
  failed: number;
}

/**
 * What the pruned messages held, accumulated prune after prune so the summary is
 * merged, never stacked. Bounded: at most {@link MAX_FILES_KEPT} paths and
 * {@link MAX_REQUESTS} requests are kept.
 */
export interface SummaryStats {
  user: number;
  assistant: number;
  tool: number;
  /** Per tool name, in first-use order. */
  readonly tools: Map<string, ToolTally>;
  /** Paths named by tool inputs, least recently touched first. */
  readonly files: Set<string>;
  /** Paths evicted from `files` to bound it. */
  filesOmitted: number;
  /** Paths named by calls of the tools that change files ({@link FILE_CHANGING_TOOLS}), oldest first. */
  readonly changed: Set<string>;
  /** Excerpts of the latest pruned user requests, oldest first. */
  readonly requests: string[];
  firstTurn: number | undefined;
  lastTurn: number | undefined;
}

/** The summary record: the deterministic stats, optionally after a model-written text. */
export interface SummaryRecord {
  /** Text written by the model via `replaceSummary`; `stats` then covers only what was pruned since. */
  modelText: string | undefined;
  stats: SummaryStats;
}

/**
 * The tools whose calls change the files their path arguments name: XZatoma's file tools.
 * The paths they named are the "files changed" a summary must carry.
 */
export const FILE_CHANGING_TOOLS: ReadonlySet<string> = new Set([
  "write_file",
  "edit_file",
  "delete_path",
  "move_path",
  "copy_path",
  "create_directory",
]);

/** Paths remembered by a summary. */
export const MAX_FILES_KEPT = 200;
/** Paths named in the summary text. */
export const MAX_FILES_SHOWN = 20;
/** Tools named in the summary text. */
export const MAX_TOOLS_SHOWN = 15;
/** Pruned user requests quoted in the summary text. */
export const MAX_REQUESTS = 5;
const REQUEST_EXCERPT = 120;

/** Creates empty stats. */
export function createSummaryStats(): SummaryStats {
  return {
    user: 0,
    assistant: 0,
    tool: 0,
    tools: new Map(),
    files: new Set(),
    filesOmitted: 0,
    changed: new Set(),
    requests: [],
    firstTurn: undefined,
    lastTurn: undefined,
  };
}

function excerpt(text: string): string {
  const line = text.trim().replace(/\s+/g, " ");
  return line.length <= REQUEST_EXCERPT ? line : `${line.slice(0, REQUEST_EXCERPT - 1)}…`;
}

/** Adds a touched path, moving it to the most recent end and bounding the set. */
export function touchFile(stats: SummaryStats, path: string): void {
  if (!stats.files.delete(path) && stats.files.size >= MAX_FILES_KEPT) {
    const oldest = stats.files.values().next();
    if (oldest.done !== true) stats.files.delete(oldest.value);
    stats.filesOmitted += 1;
  }
  stats.files.add(path);
}

/** Accounts one pruned message (from turn `turn`) in `stats`. */
export function addToSummary(stats: SummaryStats, message: Message, turn: number): void {
  stats.firstTurn = Math.min(stats.firstTurn ?? turn, turn);
  stats.lastTurn = Math.max(stats.lastTurn ?? turn, turn);
  switch (message.role) {
    case "user":
      stats.user += 1;
      stats.requests.push(excerpt(message.content));
      if (stats.requests.length > MAX_REQUESTS) stats.requests.shift();
      break;
    case "assistant":
      stats.assistant += 1;
      for (const call of message.toolCalls) {
        const tally = stats.tools.get(call.name) ?? { calls: 0, failed: 0 };
        tally.calls += 1;
        stats.tools.set(call.name, tally);
        for (const path of pathsInToolInput(call.input)) {
          touchFile(stats, path);
          if (FILE_CHANGING_TOOLS.has(call.name) && stats.changed.size < MAX_FILES_KEPT)
            stats.changed.add(path);
        }
      }
      break;
    case "tool":
      stats.tool += 1;
      if (message.isError) {
        const tally = stats.tools.get(message.toolName) ?? { calls: 0, failed: 0 };
        tally.failed += 1;
        stats.tools.set(message.toolName, tally);
      }
      break;
    case "system":
      break;
  }
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function describeStats(stats: SummaryStats, lead: string): string {
  const total = stats.user + stats.assistant + stats.tool;
  const turns =
    stats.firstTurn === undefined || stats.lastTurn === undefined
      ? ""
      : stats.firstTurn === stats.lastTurn
        ? ` (turn ${stats.firstTurn})`
        : ` (turns ${stats.firstTurn}–${stats.lastTurn})`;
  const lines = [
    `${lead} ${plural(total, "message")}${turns} were removed to fit the context window: ` +
      `${stats.user} user, ${stats.assistant} assistant, ${plural(stats.tool, "tool result")}.`,
  ];
  if (stats.tools.size > 0) {
    const tools = [...stats.tools]
      .sort((a, b) => b[1].calls - a[1].calls)
      .map(([name, t]) => `${name} ×${t.calls}${t.failed > 0 ? ` (${t.failed} failed)` : ""}`);
    const more =
      tools.length > MAX_TOOLS_SHOWN ? `, and ${tools.length - MAX_TOOLS_SHOWN} more` : "";
    lines.push(`Tools used: ${tools.slice(0, MAX_TOOLS_SHOWN).join(", ")}${more}.`);
  }
  if (stats.changed.size > 0) lines.push(`Files changed: ${[...stats.changed].join(", ")}.`);
  if (stats.files.size > 0) {
    const files = [...stats.files];
    const hidden = Math.max(0, files.length - MAX_FILES_SHOWN) + stats.filesOmitted;
    const shown = files.slice(-MAX_FILES_SHOWN).join(", ");
    lines.push(`Files touched: ${shown}${hidden > 0 ? `, and ${hidden} more` : ""}.`);
  }
  if (stats.requests.length > 0) {
    lines.push(
      "Latest of the hidden user requests:",
      ...stats.requests.map((request) => `- ${JSON.stringify(request)}`),
    );
  }
  return lines.join("\n");
}

function isEmpty(stats: SummaryStats): boolean {
  return stats.user + stats.assistant + stats.tool === 0;
}

/** The text of the summary message the model reads in place of the pruned messages. */
export function renderSummary(record: SummaryRecord): string {
  if (record.modelText === undefined)
    return describeStats(record.stats, "[Summary of the earlier conversation]");
  if (isEmpty(record.stats)) return record.modelText;
  return `${record.modelText}\n\n${describeStats(record.stats, "[Since that summary]")}`;
}
