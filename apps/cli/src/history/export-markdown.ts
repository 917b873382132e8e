import type { ConversationExport, ExportedConversation } from "./conversation-export.js";

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}\n${text}\n${ticks}`;
}

function conversationMarkdown(conversation: ExportedConversation, level: number): string {
  const heading = "#".repeat(Math.min(level, 6));
  const lines = [
    `${heading} ${conversation.label ? `${conversation.label}: ` : ""}${conversation.title}`,
    "",
    `${conversation.provider} ${conversation.model} · ${conversation.status} · started ${conversation.startedAt} · ${conversation.turns} turns · ${conversation.usage.totalTokens} tokens (${conversation.usage.inputTokens} in, ${conversation.usage.outputTokens} out)`,
    "",
  ];
  for (const { message, pruned } of conversation.messages) {
    const mark = pruned ? " (pruned)" : "";
    if (message.role === "user") lines.push(`**You**${mark}:`, "", message.content, "");
    else if (message.role === "assistant") {
      if (message.content !== "") lines.push(`**XZatoma**${mark}:`, "", message.content, "");
      for (const call of message.toolCalls) {
        lines.push(
          `Tool call \`${call.name}\`${mark}:`,
          "",
          fence(JSON.stringify(call.input, null, 2)),
          "",
        );
      }
    } else if (message.role === "tool") {
      lines.push(
        `Result of \`${message.toolName}\`${message.isError ? " (error)" : ""}${mark}:`,
        "",
        fence(message.content),
        "",
      );
    }
  }
  for (const child of conversation.subagents) lines.push(conversationMarkdown(child, level + 1));
  return lines.join("\n");
}

/** An export as Markdown: the conversation, tool calls and results fenced, subagents as sub-sections. */
export function exportMarkdown(document: ConversationExport): string {
  return `${conversationMarkdown(document.conversation, 1)}\n`;
}
