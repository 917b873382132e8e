/**
 * What a model can do, as far as its provider says. `null` means the provider does not
 * say (an OpenAI-compatible `/models` names ids only), which is not the same as "no".
 */
export interface ModelCapabilities {
  /** Tokens of prompt and answer together. */
  readonly contextWindow: number | null;
  /** Tokens of one answer at most. */
  readonly maxOutputTokens: number | null;
  /** Tokens of one prompt at most, when the provider limits it below the context window. */
  readonly maxPromptTokens: number | null;
  readonly toolCalls: boolean | null;
  readonly streaming: boolean | null;
  /** Accepts images in the prompt. */
  readonly vision: boolean | null;
}

/** A model as a provider's own listing (`listOpenAIModels`, `listCopilotModels`) reports it. */
export interface ListedModel {
  /** The id to pass as `model`. */
  readonly id: string;
  /** A display name (the id when the provider has none). */
  readonly name: string;
  /** `openai`, `openai-compatible`, `copilot`, ... */
  readonly provider: string;
  readonly capabilities: ModelCapabilities;
}

/** Capabilities of a model the provider says nothing about. */
export const UNKNOWN_CAPABILITIES: ModelCapabilities = Object.freeze({
  contextWindow: null,
  maxOutputTokens: null,
  maxPromptTokens: null,
  toolCalls: null,
  streaming: null,
  vision: null,
});
