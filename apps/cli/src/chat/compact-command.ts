import type { AgentRuntime, ToolCosts } from "@xzatoma/runtime";

/**
 * `/compact [focus]`: prunes everything before the current turn that may go, has the model
 * summarise it (most detail on `focus`) and says what happened. The instructions, skills,
 * goal, latest request and plan progress are kept verbatim by the conversation itself.
 */
export async function compactConversation(
  runtime: Pick<AgentRuntime, "agent" | "compact">,
  focus: string,
  signal: AbortSignal,
): Promise<string> {
  const before = runtime.agent.conversation.status();
  const summary = await runtime.compact({
    signal,
    everything: true,
    ...(focus.trim() === "" ? {} : { instructions: focus.trim() }),
  });
  const after = runtime.agent.conversation.status();
  const pruned = after.prunedMessages - before.prunedMessages;
  if (summary === undefined) return "Nothing to compact yet: the conversation is a single turn.";
  const kept =
    "The instructions, active skills, the goal, the latest request and the plan's progress are kept as they were.";
  return [
    pruned > 0
      ? `Compacted: ${pruned} older message(s) are no longer sent to the model (they stay in history). Context: ${before.tokens} → ${after.tokens} tokens.`
      : `Nothing more to prune; the summary was written again. Context: ${after.tokens} tokens.`,
    kept,
    "Summary the model now reads:",
    summary,
  ].join("\n");
}

const tools = (count: number) => `${count} tool${count === 1 ? "" : "s"}`;

/** The `/context` lines on what the tool definitions of each request cost. */
export function describeToolCosts(costs: ToolCosts | undefined): string[] {
  if (!costs) return [];
  const lines = [
    `Tool definitions: ${tools(costs.sent.tools)} sent with each request, about ${costs.sent.tokens} tokens` +
      (costs.mcpSent.tools > 0
        ? ` (MCP: ${tools(costs.mcpSent.tools)}, about ${costs.mcpSent.tokens} tokens)`
        : ""),
  ];
  if (costs.deferred.tools > 0)
    lines.push(
      `Deferred MCP tools: ${costs.deferred.tools}, about ${costs.deferred.tokens} tokens, not sent until tool_search loads them (budget ${costs.budgetTokens} tokens, mcp.tool_search.mode ${costs.mode})`,
    );
  return lines;
}
