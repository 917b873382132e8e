import { readFile, writeFile } from "node:fs/promises";
import type { History } from "@xzatoma/persistence";
import { ExitCode } from "../exit-codes.js";
import {
  buildConversationExport,
  parseConversationExport,
  type ExportedConversation,
} from "../history/conversation-export.js";
import { exportHtml } from "../history/export-html.js";
import { exportMarkdown } from "../history/export-markdown.js";
import { toTerminalSafe, toTerminalSafeJson, toTerminalSafeLine } from "../render/terminal-safe.js";
import { UsageError } from "../usage-error.js";
import { openUserHistory, type HistoryCommandOptions } from "./history.js";

/** The formats of `history export`. */
export const EXPORT_FORMATS = ["md", "json", "html"] as const;

/**
 * `xzatoma history export ID --format md|json|html [--output FILE]`: the conversation with
 * its tool calls, results and subagents, redacted, on stdout or in FILE.
 */
export async function historyExport(
  id: string,
  options: HistoryCommandOptions & { format?: string; output?: string },
): Promise<number> {
  const format = options.format ?? "md";
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format: '${toTerminalSafeLine(format)}' is not md, json or html.`);
  }
  const history = await openUserHistory(options);
  try {
    const tree = history.getConversationTree(id);
    if (!tree) {
      process.stderr.write(`No stored conversation '${toTerminalSafeLine(id)}'.\n`);
      return ExitCode.failure;
    }
    const document = buildConversationExport(tree);
    const text =
      format === "json"
        ? `${JSON.stringify(document, null, 2)}\n`
        : format === "html"
          ? exportHtml(document)
          : exportMarkdown(document);
    if (options.output) await writeFile(options.output, text, { mode: 0o600 });
    // terminal-safe: on a terminal the export is escaped; into a pipe or file it is the export's bytes.
    else process.stdout.write(process.stdout.isTTY ? toTerminalSafe(text) : text);
    return ExitCode.ok;
  } finally {
    history.close();
  }
}

function importTree(
  history: History,
  conversation: ExportedConversation,
  parentId?: string,
): string {
  const created = history.createConversation({
    title: conversation.title,
    provider: conversation.provider,
    model: conversation.model,
    startedAt: new Date(conversation.startedAt),
    ...(parentId === undefined ? {} : { parentId, label: conversation.label ?? "subagent" }),
  });
  const messages = conversation.messages.filter((entry) => entry.message.role !== "system");
  if (messages.length > 0) {
    history.appendMessages(
      created.id,
      messages.map((entry) => ({
        message: entry.message,
        pruned: entry.pruned === true,
        pinned: entry.pinned === true,
      })),
    );
  }
  for (const child of conversation.subagents ?? []) importTree(history, child, created.id);
  history.finishConversation(created.id, {
    // A conversation exported while it ran continues as an interrupted one.
    status: conversation.status === "running" ? "interrupted" : conversation.status,
    ...(conversation.stopReason === undefined ? {} : { stopReason: conversation.stopReason }),
    usage: conversation.usage,
    turns: conversation.turns,
    ...(conversation.completedAt ? { completedAt: new Date(conversation.completedAt) } : {}),
  });
  return created.id;
}

/**
 * `xzatoma history import FILE`: stores an exported conversation (`--format json`) and its
 * subagents under new ids; resume it with `chat --resume ID`.
 */
export async function historyImport(file: string, options: HistoryCommandOptions): Promise<number> {
  let document;
  try {
    document = parseConversationExport(await readFile(file, "utf8"));
  } catch (error) {
    process.stderr.write(
      `${toTerminalSafeLine(file)} is not an XZatoma conversation export: ${toTerminalSafeLine(error instanceof Error ? error.message : String(error))}\n`,
    );
    return ExitCode.failure;
  }
  const history = await openUserHistory(options);
  try {
    const id = history.batch(() => importTree(history, document.conversation));
    if (options.json) {
      process.stdout.write(
        `${toTerminalSafeJson({ id, importedFrom: document.conversation.id })}\n`,
      );
    } else {
      process.stdout.write(
        toTerminalSafe(
          `Imported as ${id} (exported from ${document.conversation.id}). Continue it: xzatoma chat --resume ${id}\n`,
        ),
      );
    }
    return ExitCode.ok;
  } finally {
    history.close();
  }
}
