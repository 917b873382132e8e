import type { ConversationExport, ExportedConversation } from "./conversation-export.js";

/** Text made safe inside HTML elements and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A tool's text, with the lines of a unified diff coloured (added, removed, hunk headers). */
function preformatted(text: string): string {
  const looksLikeDiff = /^(?:---|\+\+\+|@@) /m.test(text);
  const lines = text.split("\n").map((line) => {
    const safe = escapeHtml(line);
    if (!looksLikeDiff) return safe;
    if (line.startsWith("+++") || line.startsWith("---"))
      return `<span class="file">${safe}</span>`;
    if (line.startsWith("@@")) return `<span class="hunk">${safe}</span>`;
    if (line.startsWith("+")) return `<span class="add">${safe}</span>`;
    if (line.startsWith("-")) return `<span class="del">${safe}</span>`;
    return safe;
  });
  return `<pre>${lines.join("\n")}</pre>`;
}

function conversationHtml(conversation: ExportedConversation): string {
  const parts: string[] = [];
  const results = new Map<string, { content: string; isError: boolean }>();
  for (const { message } of conversation.messages) {
    if (message.role === "tool") results.set(message.toolCallId, message);
  }
  parts.push(
    `<p class="meta">${escapeHtml(`${conversation.provider} ${conversation.model} · ${conversation.status} · started ${conversation.startedAt}${conversation.completedAt ? `, ended ${conversation.completedAt}` : ""} · ${conversation.turns} turns · ${conversation.usage.totalTokens} tokens (${conversation.usage.inputTokens} in, ${conversation.usage.outputTokens} out)`)}</p>`,
  );
  for (const { message, pruned, createdAt } of conversation.messages) {
    const when = `<time>${escapeHtml(createdAt)}</time>`;
    const prunedClass = pruned ? " pruned" : "";
    if (message.role === "user") {
      parts.push(
        `<div class="message user${prunedClass}"><div class="who">You ${when}</div>${preformatted(message.content)}</div>`,
      );
    } else if (message.role === "assistant") {
      const calls = message.toolCalls
        .map((call) => {
          const result = results.get(call.id);
          const status = result === undefined ? "no result" : result.isError ? "error" : "ok";
          return `<details class="tool"><summary><code>${escapeHtml(call.name)}</code> <span class="status ${status.replace(" ", "-")}">${status}</span></summary><div class="label">input</div>${preformatted(JSON.stringify(call.input, null, 2))}${result === undefined ? "" : `<div class="label">result</div>${preformatted(result.content)}`}</details>`;
        })
        .join("");
      const text = message.content === "" ? "" : preformatted(message.content);
      parts.push(
        `<div class="message assistant${prunedClass}"><div class="who">XZatoma ${when}</div>${text}${calls}</div>`,
      );
    }
  }
  for (const child of conversation.subagents) {
    parts.push(
      `<details class="subagent" open><summary>Subagent ${escapeHtml(child.label ?? child.id)}: ${escapeHtml(child.title)}</summary>${conversationHtml(child)}</details>`,
    );
  }
  return parts.join("\n");
}

const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1d1d1f; }
h1 { font-size: 1.4rem; }
.meta, time, .label { color: #6b6b70; font-size: 0.85rem; }
.message { border-left: 3px solid #d0d0d5; padding: 0.25rem 0.75rem; margin: 1rem 0; }
.message.user { border-color: #3a6fd8; }
.message.assistant { border-color: #2f9e5b; }
.pruned { opacity: 0.55; }
.who { font-weight: 600; }
pre { white-space: pre-wrap; word-break: break-word; background: #f5f5f7; padding: 0.5rem; border-radius: 4px; margin: 0.25rem 0; }
details.tool { margin: 0.5rem 0; border: 1px solid #e0e0e5; border-radius: 4px; padding: 0.25rem 0.5rem; }
details.subagent { margin: 1rem 0 1rem 1rem; border-left: 3px dashed #a070d0; padding-left: 0.75rem; }
summary { cursor: pointer; }
.status.ok { color: #2f9e5b; } .status.error { color: #c62828; } .status.no-result { color: #6b6b70; }
.add { color: #116329; background: #dafbe1; } .del { color: #82071e; background: #ffebe9; }
.hunk { color: #6639ba; } .file { font-weight: 600; }
`;

/**
 * An export as one self-contained HTML page: no script, no external load (its Content
 * Security Policy forbids every fetch; the style is inline), tool calls in collapsible
 * `<details>` with their results, diffs coloured, subagents nested, usage and timings.
 */
export function exportHtml(document: ConversationExport): string {
  const conversation = document.conversation;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="XZatoma export v${document.version}">
<title>${escapeHtml(conversation.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(conversation.title)}</h1>
${conversationHtml(conversation)}
<p class="meta">Exported ${escapeHtml(document.exportedAt)} from conversation ${escapeHtml(conversation.id)}.</p>
</body>
</html>
`;
}
