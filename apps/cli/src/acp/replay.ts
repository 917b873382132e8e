import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { Message } from "@xzatoma/conversation";
import { toolKind, toolLocations, toolTitle } from "./tool-calls.js";

/**
 * The session updates that show a stored conversation again (`session/load`): the
 * person's messages, the answers, and each tool call with how it ended.
 */
export function replayUpdates(messages: readonly Message[], root: string): SessionUpdate[] {
  const results = new Map<string, { content: string; isError: boolean }>();
  for (const message of messages)
    if (message.role === "tool")
      results.set(message.toolCallId, { content: message.content, isError: message.isError });
  const updates: SessionUpdate[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      updates.push({
        sessionUpdate: "user_message_chunk",
        content: { type: "text", text: message.content },
      });
    } else if (message.role === "assistant") {
      if (message.content !== "")
        updates.push({
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text: message.content },
        });
      for (const call of message.toolCalls) {
        const result = results.get(call.id);
        updates.push({
          sessionUpdate: "tool_call",
          toolCallId: call.id,
          title: toolTitle(call.name, call.input),
          kind: toolKind(call.name),
          status: result === undefined || result.isError ? "failed" : "completed",
          locations: toolLocations(root, call.input),
          rawInput: call.input,
          ...(result
            ? { content: [{ type: "content", content: { type: "text", text: result.content } }] }
            : {}),
        });
      }
    }
  }
  return updates;
}
