// How the local model picks tokens for one request: the call's settings over the model's
// (LocalSampling) over the defaults, for free text and for JSON forced by a grammar.
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import type { LlamaModel, Token, TokenBias } from "node-llama-cpp";
import { DEFAULT_LOCAL_SAMPLING, type LocalModelOptions, type LocalSampling } from "./options.js";
import type { LoadedRuntime } from "./runtime.js";
import type { Session } from "./session.js";

/**
 * A token bias raising the end-of-turn tokens' logits by `logit`. `TokenBias.set` ignores
 * end-of-generation tokens (it exists to steer words), so they go into the bias map it
 * hands to llama.cpp's logit-bias sampler directly; if a node-llama-cpp version keeps that
 * map elsewhere, the bias is left empty and answers simply end where the model ends them.
 */
function endOfAnswerBias(
  runtime: LoadedRuntime,
  model: LlamaModel,
  endTokens: readonly Token[],
  logit: number,
): TokenBias {
  const bias = new runtime.module.TokenBias(model.tokenizer);
  const biases = (bias as unknown as { _biases?: unknown })._biases;
  if (logit > 0 && biases instanceof Map) for (const token of endTokens) biases.set(token, logit);
  return bias;
}

/** How far an answer has come; the end-of-answer bias reads it before every token. */
export interface AnswerProgress {
  /** Tokens written so far. */
  tokens: number;
  /** The answer's token limit. */
  limit: number;
}

/**
 * The sampling settings of one request: `text` for what the model writes freely (with the
 * repeat penalties and the end-of-answer bias), `grammar` for JSON forced by a grammar,
 * which keeps node-llama-cpp's own repeat penalty: JSON repeats its quotes and braces by
 * nature.
 */
export function samplingFor(
  session: Session,
  options: LanguageModelV4CallOptions,
  settings: LocalModelOptions,
  signal: AbortSignal,
  progress: AnswerProgress,
) {
  const { runtime } = session;
  const callPenalties = {
    ...(options.presencePenalty === undefined ? {} : { presencePenalty: options.presencePenalty }),
    ...(options.frequencyPenalty === undefined
      ? {}
      : { frequencyPenalty: options.frequencyPenalty }),
  };
  const configured: LocalSampling = { ...DEFAULT_LOCAL_SAMPLING, ...settings.sampling };
  const temperature = options.temperature ?? settings.temperature ?? configured.temperature;
  const topP = options.topP ?? configured.topP;
  const topK = options.topK ?? configured.topK;
  const seed = options.seed ?? configured.seed;
  const sampling = {
    signal,
    ...(temperature === undefined ? {} : { temperature }),
    ...(topP === undefined ? {} : { topP }),
    ...(topK === undefined ? {} : { topK }),
    ...(configured.minP === undefined ? {} : { minP: configured.minP }),
    ...(seed === undefined ? {} : { seed }),
    ...(options.stopSequences?.length ? { customStopTriggers: options.stopSequences } : {}),
  };
  const grammarSampling = {
    ...sampling,
    ...(Object.keys(callPenalties).length > 0 ? { repeatPenalty: callPenalties } : {}),
  };
  const endBias = configured.endOfAnswerBias;
  const endTokens = [session.model.tokens.eos, session.model.tokens.eot].filter(
    (token): token is Token => token !== null,
  );
  const textSampling = {
    ...sampling,
    ...(endBias && endTokens.length > 0
      ? {
          tokenBias: () => {
            // Starts no later than half way to the answer's token limit.
            const start = Math.min(endBias.after, Math.floor(progress.limit / 2));
            const logit = (progress.tokens - start) * endBias.perToken;
            return endOfAnswerBias(runtime, session.model, endTokens, logit);
          },
        }
      : {}),
    repeatPenalty:
      configured.repeatPenalty === false && Object.keys(callPenalties).length === 0
        ? (false as const)
        : { ...(configured.repeatPenalty || {}), ...callPenalties },
    ...(configured.dryRepeatPenalty
      ? { dryRepeatPenalty: { ...configured.dryRepeatPenalty } }
      : {}),
  };
  return { grammar: grammarSampling, text: textSampling };
}
