// The local model's settings: its defaults, how it samples, and the options of
// createLocalModel.
import type { LanguageModelV4 } from "@ai-sdk/provider";

/** Context size used when none is given (capped at the model's training context). */
export const DEFAULT_LOCAL_CONTEXT_SIZE = 4096;
/**
 * Most tokens one response may have when neither the call nor the model sets a limit. Small
 * models loop (repeating a file they read, a list, a sentence) until something stops them;
 * 512 tokens is a long answer for a model that runs in-process.
 */
export const DEFAULT_LOCAL_MAX_TOKENS = 512;

/**
 * Sampling of the local model when the call sets nothing else: greedy (temperature 0, the
 * same answer for the same prompt), with node-llama-cpp's repeat penalty over the last 64
 * tokens (1.1, plus a small frequency penalty), its DRY penalty, which makes repeating a run
 * of tokens verbatim ever less likely, and a rising bias towards ending the answer once it
 * has 256 tokens (or half its token limit, if that is less). Small models otherwise loop,
 * restating what they read until the token limit or the context ends them. All three apply
 * to what the model writes, never to JSON forced by a grammar (tool calls, JSON answers).
 */
export const DEFAULT_LOCAL_SAMPLING: LocalSampling = Object.freeze({
  temperature: 0,
  repeatPenalty: Object.freeze({ lastTokens: 64, penalty: 1.1, frequencyPenalty: 0.1 }),
  dryRepeatPenalty: Object.freeze({
    strength: 0.8,
    base: 1.75,
    allowedLength: 2,
    lastTokens: 1024,
  }),
  endOfAnswerBias: Object.freeze({ after: 256, perToken: 0.1 }),
});

/**
 * How the local model picks tokens (node-llama-cpp's settings of the same names). A call's
 * `temperature`, `topP`, `topK`, `seed`, `presencePenalty` and `frequencyPenalty` win.
 */
export interface LocalSampling {
  /** 0 is greedy. */
  readonly temperature?: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly minP?: number;
  /** Makes sampling with a temperature above 0 reproducible. */
  readonly seed?: number;
  /** Penalty for tokens among the last `lastTokens`; `false` turns it off. */
  readonly repeatPenalty?:
    | false
    | {
        readonly lastTokens?: number;
        readonly penalty?: number;
        readonly frequencyPenalty?: number;
        readonly presencePenalty?: number;
        readonly penalizeNewLine?: boolean;
      };
  /** "Don't repeat yourself": penalty for repeating a run of tokens; `false` turns it off. */
  readonly dryRepeatPenalty?:
    | false
    | {
        readonly strength: number;
        readonly base?: number;
        readonly allowedLength?: number;
        readonly lastTokens?: number;
      };
  /**
   * Once an answer has `after` tokens, the end-of-turn token's logit rises by `perToken`
   * with every further token, so a long answer ends at its next natural stop rather than
   * running on until the token limit (the length penalty of other runtimes). `false` turns
   * it off.
   */
  readonly endOfAnswerBias?: false | { readonly after: number; readonly perToken: number };
}

/** Options of {@link createLocalModel}. */
export interface LocalModelOptions {
  /** Path of the GGUF model file. Relative paths are resolved against the working directory. */
  readonly modelPath: string;
  /** Tokens of context (prompt and answer). Default 4096, or the model's training context if smaller. */
  readonly contextSize?: number;
  /** CPU threads for evaluation. Default: the machine's cores useful for math (`cpuMathCores`). */
  readonly threads?: number;
  /** Sampling temperature when the call sets none. Default 0: greedy, reproducible. */
  readonly temperature?: number;
  /**
   * Sampling when the call sets nothing else; each field replaces the one of
   * {@link DEFAULT_LOCAL_SAMPLING}. Repeat penalties apply to free text only, never to JSON
   * forced by a grammar.
   */
  readonly sampling?: LocalSampling;
  /**
   * Most tokens per response when the call sets no `maxOutputTokens`. Default 512. Either
   * limit is lowered to what the context has room for after the prompt.
   */
  readonly maxTokens?: number;
  /**
   * Added to the system prompt when the model may call tools; `false` adds nothing. Default
   * `LOCAL_TOOL_INSTRUCTIONS`: reply with the call alone, paths relative to the workspace.
   */
  readonly toolInstructions?: string | false;
  /** The model id reported to callers. Default: the file name without `.gguf`. */
  readonly modelId?: string;
  /** Where to import node-llama-cpp from. Default `node-llama-cpp`. */
  readonly runtimeModule?: string;
}

/** A language model running a GGUF file in-process. */
export interface LocalLanguageModel extends LanguageModelV4 {
  readonly provider: "local";
  /** Absolute path of the GGUF file. */
  readonly modelPath: string;
  /**
   * Loads the runtime, the model and a context now rather than on the first request, so
   * problems show at once. Rejects with a `LocalModelUnavailableError` when the runtime
   * or the model cannot be loaded.
   */
  load(): Promise<void>;
}
