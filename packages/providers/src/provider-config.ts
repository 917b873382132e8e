/**
 * The `provider` section of the configuration file, in the file's snake_case names. The
 * providers own it: every key here is read by `createProvider`. Exported from
 * `@xzatoma/providers/config`, so a program that only runs a provider loads no zod for it.
 */
import {
  expecting,
  flag,
  httpUrl,
  oneOf,
  resolvedPath,
  text,
  timerSeconds,
} from "@xzatoma/core/config";
import { z } from "zod";
import { DEFAULT_OLLAMA_HOST, isOllamaHost } from "./ollama-host.js";
import { PROVIDER_TYPES } from "./provider-types.js";

export { isProviderType, PROVIDER_TYPES, type ProviderType } from "./provider-types.js";

/**
 * An Ollama host as users write it: `host:port` or a URL. The provider normalises it
 * ({@link normalizeOllamaHost}) when it connects.
 */
function ollamaHost() {
  return expecting(
    z.string().refine(isOllamaHost),
    "a host such as localhost:11434 or http://host:11434",
  );
}

const ollamaSchema = z.strictObject({
  host: ollamaHost().default(DEFAULT_OLLAMA_HOST),
  model: text().default("llama3.2:latest"),
  /** Longest wait for Ollama to start answering, and longest silence within an answer. */
  request_timeout_seconds: timerSeconds().default(600),
  /**
   * The context window Ollama is asked for (`num_ctx`), at most the model's trained length.
   * Default: `agent.conversation.max_tokens`, at most the trained length. The conversation
   * is planned to fit the window that is asked for.
   */
  num_ctx: expecting(z.number().int().min(256), "an integer of at least 256").optional(),
});

const openaiSchema = z.strictObject({
  base_url: httpUrl().default("https://api.openai.com/v1"),
  model: text().default("gpt-4o-mini"),
  /** Sent as the `OpenAI-Organization` header. */
  organization_id: text().optional(),
  /** Longest wait for the server to start answering, and longest silence within an answer. */
  request_timeout_seconds: timerSeconds().default(600),
  /** False: each request asks for the whole answer at once (`stream: false`). */
  enable_streaming: flag().default(true),
});

const copilotSchema = z.strictObject({
  model: text().default("gpt-5-mini"),
  /** The GitHub OAuth app of the device flow (`auth login copilot`). */
  client_id: text().optional(),
  /** The Copilot API, instead of the one the token exchange names. */
  api_base: httpUrl().optional(),
});

const localSchema = z.strictObject({
  /** Default: `<data dir>/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf`. */
  model_path: resolvedPath().optional(),
  /**
   * CPU threads the model evaluates with. Default: the machine's cores useful for math.
   * Fewer leave cores to the rest of the machine (a build, a test run) at the model's speed.
   */
  threads: expecting(z.number().int().min(1).max(512), "an integer from 1 to 512").optional(),
});

/**
 * The `provider` section. Every object is strict: an unknown key is an error. Parsing `{}`
 * gives every default.
 */
export const providerConfigSchema = z.strictObject({
  type: oneOf(PROVIDER_TYPES).default("ollama"),
  ollama: ollamaSchema.prefault({}),
  openai: openaiSchema.prefault({}),
  copilot: copilotSchema.prefault({}),
  local: localSchema.prefault({}),
});

/** The `provider` section after defaults. */
export type ProviderConfig = z.output<typeof providerConfigSchema>;
