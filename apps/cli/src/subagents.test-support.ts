// What the subagent end-to-end tests read from the requests the scripted model server got.

/** The part of a chat request {@link depthOf} reads. */
interface ChatRequest {
  readonly messages: readonly { readonly role: string; readonly content: string }[];
}

/** The depth of the agent that sent a request: 0 for the top-level one, from its system prompt. */
export function depthOf(request: ChatRequest): number {
  const system = request.messages.find((message) => message.role === "system")?.content ?? "";
  return Number(/You are a subagent \(depth (\d+)\)/.exec(system)?.[1] ?? "0");
}
