import { homedir } from "node:os";
import type { ConversationStatus, History } from "@xzatoma/persistence";
import { loadConfig, openRuntimeHistory } from "@xzatoma/runtime";
import { FLAG_MAPPINGS } from "../config/flag-mapping.js";
import { ExitCode } from "../exit-codes.js";
import { prunedLegend } from "../history/pruned-legend.js";
import { formatConversationLine, renderConversationTree } from "../history/render-conversation.js";
import { toTerminalSafe, toTerminalSafeJson, toTerminalSafeLine } from "../render/terminal-safe.js";
import { UsageError } from "../usage-error.js";

/** Options shared by the history commands. */
export interface HistoryCommandOptions {
  readonly storagePath?: string;
  readonly config?: string;
  readonly json?: boolean;
}

/**
 * Opens the history database `chat` and `run` write: `persistence.db_path` of the
 * configuration as every command resolves it (`--storage-path`, the file, the environment,
 * then `history.db` in the data directory).
 */
export async function openUserHistory(options: HistoryCommandOptions): Promise<History> {
  const loaded = await loadConfig({
    ...(options.config ? { configPath: options.config } : {}),
    env: process.env,
    flags: options.storagePath ? { storagePath: options.storagePath } : {},
    flagMappings: FLAG_MAPPINGS,
    homeDir: homedir(),
    cwd: process.cwd(),
  });
  return openRuntimeHistory(loaded.config.persistence.db_path);
}

function parseDate(flag: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new UsageError(`${flag}: '${value}' is not a date (use 2026-11-22 or an RFC 3339 time).`);
  return date;
}

const STATUSES = ["running", "completed", "failed", "stopped", "interrupted"];

/** The filter flags of `history list` as the user gave them, e.g. `--status failed --since 2026-01-01`. */
function describeFilter(options: { since?: string; until?: string; status?: string[] }): string {
  const flags = [
    ...(options.status ?? []).map((status) => `--status ${status}`),
    ...(options.since === undefined ? [] : [`--since ${options.since}`]),
    ...(options.until === undefined ? [] : [`--until ${options.until}`]),
  ];
  return toTerminalSafeLine(flags.join(" "));
}

const conversations = (count: number) => `${count} conversation${count === 1 ? "" : "s"}`;

/** Why `history list` shows nothing: no history yet, a filter that matches nothing, or a page past the end. */
function describeEmptyList(
  history: History,
  options: { since?: string; until?: string; status?: string[] },
  shown: { total: number; page: number; limit: number },
): string {
  if (shown.total > 0) {
    const pages = Math.ceil(shown.total / shown.limit);
    return `No conversations on page ${shown.page}; there ${pages === 1 ? "is 1 page" : `are ${pages} pages`} (${conversations(shown.total)}).`;
  }
  const filter = describeFilter(options);
  if (filter === "") return "No conversations yet.";
  const saved = history.listConversations({ limit: 1, offset: 0, parentId: null }).total;
  if (saved === 0) return `No conversations match ${filter}: there are no conversations yet.`;
  return `No conversations match ${filter} (${conversations(saved)} saved in all; 'xzatoma history list' shows ${saved === 1 ? "it" : "them"}).`;
}

/** `xzatoma history list`. */
export async function historyList(
  options: HistoryCommandOptions & {
    limit?: number;
    page?: number;
    since?: string;
    until?: string;
    status?: string[];
  },
): Promise<number> {
  for (const status of options.status ?? []) {
    if (!STATUSES.includes(status))
      throw new UsageError(`--status: '${status}' is not one of ${STATUSES.join(", ")}.`);
  }
  const since = parseDate("--since", options.since);
  const until = parseDate("--until", options.until);
  const history = await openUserHistory(options);
  try {
    const limit = options.limit ?? 20;
    const page = options.page ?? 1;
    const result = history.listConversations({
      limit,
      offset: (page - 1) * limit,
      parentId: null,
      ...(since ? { since } : {}),
      ...(until ? { until } : {}),
      ...(options.status ? { status: options.status as ConversationStatus[] } : {}),
    });
    if (options.json) {
      process.stdout.write(
        `${toTerminalSafeJson({ total: result.total, page, limit, items: result.items })}\n`,
      );
    } else if (result.items.length === 0) {
      process.stdout.write(
        `${toTerminalSafe(describeEmptyList(history, options, { total: result.total, page, limit }))}\n`,
      );
    } else {
      // terminal-safe: formatConversationLine escapes the title and every field it shows.
      for (const item of result.items) process.stdout.write(`${formatConversationLine(item)}\n`);
      const shown = (page - 1) * limit + result.items.length;
      process.stdout.write(
        `(${shown} of ${result.total}${shown < result.total ? `; next: --page ${page + 1}` : ""})\n`,
      );
    }
    return ExitCode.ok;
  } finally {
    history.close();
  }
}

/** `xzatoma history show ID` and `xzatoma replay ID`: the conversation as it happened. */
export async function historyShow(id: string, options: HistoryCommandOptions): Promise<number> {
  const history = await openUserHistory(options);
  try {
    const tree = history.getConversationTree(id);
    if (!tree) {
      process.stderr.write(
        `error: no conversation '${toTerminalSafeLine(id)}'; see 'xzatoma history list'.\n`,
      );
      return ExitCode.failure;
    }
    if (options.json) process.stdout.write(`${toTerminalSafeJson(tree)}\n`);
    else {
      const legend = prunedLegend(tree);
      // terminal-safe: renderConversationTree escapes every message, tool call and result; the legend is fixed text.
      process.stdout.write(`${renderConversationTree(tree)}\n${legend ? `${legend}\n` : ""}`);
    }
    return ExitCode.ok;
  } finally {
    history.close();
  }
}

/**
 * `xzatoma history delete ID`. Only a whole id deletes: a prefix (which `show` and
 * `--resume` accept) deletes nothing and names the conversation it matches, so a short or
 * mistyped id cannot remove a conversation nobody looked at.
 */
export async function historyDelete(id: string, options: HistoryCommandOptions): Promise<number> {
  const history = await openUserHistory(options);
  try {
    const found = history.getConversation(id);
    const whole = found !== undefined && found.id === id.trim().toUpperCase();
    if (found !== undefined && !whole) {
      const message = `'${toTerminalSafeLine(id)}' is only the start of an id; it matches ${found.id} (${toTerminalSafeLine(found.title)}, ${found.startedAt}). To delete that conversation: xzatoma history delete ${found.id}`;
      if (options.json)
        process.stdout.write(
          `${toTerminalSafeJson({ id, deleted: false, matches: found.id, reason: "prefix" })}\n`,
        );
      // terminal-safe: message is built above from escaped parts and the ids and times the history database made.
      else process.stderr.write(`${message}\n`);
      return ExitCode.failure;
    }
    const deleted = found !== undefined && history.deleteConversation(found.id);
    const shown = found?.id ?? id;
    if (options.json) process.stdout.write(`${toTerminalSafeJson({ id: shown, deleted })}\n`);
    else
      process.stdout.write(
        deleted
          ? `Deleted conversation ${toTerminalSafeLine(shown)} (${toTerminalSafeLine(found.title)}).\n`
          : `No conversation '${toTerminalSafeLine(id)}'.\n`,
      );
    return deleted ? ExitCode.ok : ExitCode.failure;
  } finally {
    history.close();
  }
}
