import type {
  ConversationRecord,
  ConversationTree,
  HistoryMessage,
  StoredMessage,
} from "@xzatoma/persistence";
import { toTerminalSafe, toTerminalSafeJson, toTerminalSafeLine } from "../render/terminal-safe.js";

// Stored conversations hold what the model and its tools wrote; everything taken from
// them is escaped for the terminal (see render/terminal-safe.ts).
const text = (value: string) => toTerminalSafe(value);
const line = (value: string) => toTerminalSafeLine(value);

/** One line per conversation for `xzatoma history list`. */
export function formatConversationLine(record: ConversationRecord): string {
  const tokens = record.usage.totalTokens;
  return `${record.id}  ${record.startedAt}  ${record.status.padEnd(11)} ${String(record.turns).padStart(3)} turns ${String(tokens).padStart(7)} tokens  ${line(record.model)}  ${line(record.title)}`;
}

function describeMessage(message: HistoryMessage): string[] {
  const lines: string[] = [];
  switch (message.role) {
    case "system":
      lines.push(`system: ${text(message.content)}`);
      break;
    case "user":
      lines.push(`user: ${text(message.content)}`);
      break;
    case "assistant":
      if (message.content !== "") lines.push(`assistant: ${text(message.content)}`);
      for (const call of message.toolCalls ?? [])
        lines.push(`assistant → ${line(call.name)} ${toTerminalSafeJson(call.input)}`);
      break;
    case "tool":
      lines.push(
        `${line(message.toolName ?? "tool")} ${message.isError ? "✗" : "✓"} ${text(message.content)}`,
      );
      break;
  }
  return lines;
}

function indent(text: string, depth: number): string {
  const pad = "  ".repeat(depth);
  return text
    .split("\n")
    .map((line) => `${pad}${line}`)
    .join("\n");
}

function renderMessages(messages: readonly StoredMessage[], depth: number): string[] {
  const out: string[] = [];
  for (const stored of messages) {
    for (const line of describeMessage(stored.message)) {
      out.push(indent(stored.pruned ? `[pruned] ${line}` : line, depth));
    }
  }
  return out;
}

/** The conversation as it happened, with tool calls, pruned parts marked and the subagent tree. */
export function renderConversationTree(tree: ConversationTree, depth = 0): string {
  const header = `${depth === 0 ? "conversation" : `subagent${tree.label ? ` '${line(tree.label)}'` : ""}`} ${tree.id} · ${line(tree.model)} · ${tree.status}${tree.stopReason ? ` (${tree.stopReason})` : ""} · ${tree.startedAt}`;
  const lines = [indent(header, depth), ...renderMessages(tree.messages, depth + 1)];
  for (const child of tree.children) lines.push(renderConversationTree(child, depth + 1));
  return lines.join("\n");
}
