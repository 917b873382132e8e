import type { LanguageModelV4Prompt } from "@ai-sdk/provider";

/**
 * Who started the request, for Copilot's `X-Initiator` header (it decides premium-request
 * billing): `user` when the last message is the user's, `agent` when the agent continues
 * on its own (after a tool result or its own message).
 */
export function initiatorOf(prompt: LanguageModelV4Prompt): "user" | "agent" {
  for (let index = prompt.length - 1; index >= 0; index -= 1) {
    const message = prompt[index];
    if (!message || message.role === "system") continue;
    return message.role === "user" ? "user" : "agent";
  }
  return "user";
}

/** True when a user message carries an image (Copilot wants `Copilot-Vision-Request`). */
export function hasImageInput(prompt: LanguageModelV4Prompt): boolean {
  return prompt.some(
    (message) =>
      message.role === "user" &&
      message.content.some((part) => part.type === "file" && part.mediaType.startsWith("image/")),
  );
}
