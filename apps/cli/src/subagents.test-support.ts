// What the subagent end-to-end tests read from the requests the scripted model server got.
import type { OllamaChatRequest } from "@xzatoma/scripted-servers/ollama";

/** The depth of the agent that sent a request: 0 for the top-level one, from its system prompt. */
export function depthOf(request: OllamaChatRequest): number {
  const system = request.messages.find((message) => message.role === "system")?.content ?? "";
  return Number(/You are a subagent \(depth (\d+)\)/.exec(system)?.[1] ?? "0");
}
