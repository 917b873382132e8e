// What the local provider adds to the system prompt when the model may call tools: two
// sentences a small model can follow, measured on the agentic evals
// (docs/explanation/local-models.md, "What moved the scores").
import type { ChatHistoryItem } from "node-llama-cpp";

/**
 * Added to the system prompt of a request that offers tools. Small models answer with prose
 * around a call, and copy a long absolute workspace path wrongly (dropping or changing a
 * segment); a path relative to the workspace is short and is what the tools take. No example
 * path: Qwen2.5-Coder 0.5B answered "src/app.js", the example of an earlier wording, when
 * asked where a function is defined.
 */
export const LOCAL_TOOL_INSTRUCTIONS =
  "To use a tool, reply with the tool call alone. Write file paths relative to the workspace, not as full paths.";

/**
 * `history` with `instructions` at the end of its first system message (a system message
 * of their own when it has none). The history is copied, never changed.
 */
export function withToolInstructions(
  history: readonly ChatHistoryItem[],
  instructions: string,
): ChatHistoryItem[] {
  const index = history.findIndex((item) => item.type === "system");
  if (index === -1) return [{ type: "system", text: instructions }, ...history];
  const system = history[index] as Extract<ChatHistoryItem, { type: "system" }>;
  const added: ChatHistoryItem[] =
    typeof system.text === "string"
      ? [{ type: "system", text: `${system.text}\n${instructions}` }]
      : [system, { type: "system", text: instructions }];
  return [...history.slice(0, index), ...added, ...history.slice(index + 1)];
}
