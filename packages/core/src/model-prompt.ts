import type { LanguageModelV4FunctionTool, LanguageModelV4Prompt } from "@ai-sdk/provider";
import type { Message } from "@xzatoma/conversation";
import type { ToolSpecification } from "./tool-registry.js";

/** Converts conversation messages into the AI SDK's language-model prompt. */
export function toModelPrompt(messages: readonly Message[]): LanguageModelV4Prompt {
  return messages.map((message) => {
    switch (message.role) {
      case "system":
        return { role: "system", content: message.content };
      case "user":
        return { role: "user", content: [{ type: "text", text: message.content }] };
      case "assistant":
        return {
          role: "assistant",
          content: [
            ...(message.content === "" ? [] : [{ type: "text" as const, text: message.content }]),
            ...message.toolCalls.map((call) => ({
              type: "tool-call" as const,
              toolCallId: call.id,
              toolName: call.name,
              input: call.input,
            })),
          ],
        };
      case "tool":
        return {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: message.toolCallId,
              toolName: message.toolName,
              output: message.isError
                ? { type: "error-text", value: message.content }
                : { type: "text", value: message.content },
            },
          ],
        };
    }
  });
}

/** Converts tool specifications into the AI SDK's function tools. */
export function toModelTools(
  specifications: readonly ToolSpecification[],
): LanguageModelV4FunctionTool[] {
  return specifications.map((specification) => ({
    type: "function",
    name: specification.name,
    description: specification.description,
    inputSchema: specification.inputSchema,
  }));
}
