/**
 * The `provider` section of the configuration file, in the file's snake_case names. The
 * providers own it: every key here is read by {@link createProvider}.
 */
import {
  expecting,
  filePath,
  flag,
  httpUrl,
  isHttpUrlWithoutCredentials,
  oneOf,
  text,
  timerSeconds,
} from "@xzatoma/core";
import { z } from "zod";
import { DEFAULT_OLLAMA_HOST, normalizeOllamaHost } from "./ollama-host.js";

/** The model providers XZatoma knows. */
export const PROVIDER_TYPES = ["ollama", "openai", "copilot", "local"] as const;
/** `provider.type`. */
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** True when `value` is the name of a provider. */
export function isProviderType(value: unknown): value is ProviderType {
  return typeof value === "string" && (PROVIDER_TYPES as readonly string[]).includes(value);
}

/**
 * An Ollama host as users write it: `host:port` or a URL. The provider normalises it
 * ({@link normalizeOllamaHost}) when it connects.
 */
function ollamaHost() {
  return expecting(
    z.string().refine((value) => {
      if (value.trim() === "") return false;
      try {
        return isHttpUrlWithoutCredentials(normalizeOllamaHost(value));
      } catch {
        return false;
      }
    }),
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
  /** Default: `<data dir>/models/SmolLM2-135M-Instruct.Q4_1.gguf`. */
  model_path: filePath().optional(),
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
