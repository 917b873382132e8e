// One generation of the local model: the request's plan run through node-llama-cpp, its
// answer written as stream parts, the answer kept within the context.
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { describeError, isXzatomaError, ProviderError, XzatomaError } from "@xzatoma/core";
import type {
  ChatHistoryItem,
  ChatModelFunctions,
  LlamaChatResponse,
  LlamaChatResponseChunk,
} from "node-llama-cpp";
import { newToolCallId } from "../tool-call-id.js";
import { abortReason } from "./abort.js";
import { DEFAULT_LOCAL_MAX_TOKENS, type LocalModelOptions } from "./options.js";
import {
  forcedToolsInstruction,
  forcedToolsSchema,
  parseForcedCall,
  type RequestPlan,
} from "./request-plan.js";
import { samplingFor, type AnswerProgress } from "./sampling.js";
import { dropOptionalNulls, toGrammarSchema } from "./schema.js";
import { grammarFor, promptTokens as countPromptTokens, type Session } from "./session.js";
import { BlockWriter, finishReason, usageSince } from "./stream-parts.js";

/**
 * Tokens kept free between the prompt plus the longest answer and the end of the context.
 * llama.cpp needs the answer to fit: when it does not, node-llama-cpp shifts the context,
 * dropping the conversation's start, and fails when that is not enough.
 */
const CONTEXT_MARGIN = 8;

/**
 * node-llama-cpp's failure when the answer outgrew the context and dropping the start of
 * the conversation did not make room ("The default context shift strategy did not return
 * a history that fits the context size", "Failed to free up space for new tokens").
 */
function isContextShiftFailure(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /context shift|fits the context size|free up space for new tokens|too small to fit/i.test(
    message,
  );
}

/** `CONTEXT_LENGTH_EXCEEDED` for the model `modelId`, with the prompt's tokens when known. */
function contextFull(session: Session, modelId: string, promptTokens?: number): XzatomaError {
  const contextSize = session.context.contextSize;
  const needs =
    promptTokens === undefined
      ? ""
      : `, and the conversation takes ${promptTokens} of them before the answer`;
  return new XzatomaError(
    "CONTEXT_LENGTH_EXCEEDED",
    `The local model ${modelId} has a context of ${contextSize} tokens${needs}: nothing more fits.`,
    {
      fields: {
        provider: "local",
        model: modelId,
        contextSize,
        ...(promptTokens === undefined ? {} : { promptTokens }),
      },
    },
  );
}

/** One request to a loaded local model. */
export interface Generation {
  readonly session: Session;
  readonly plan: RequestPlan;
  readonly options: LanguageModelV4CallOptions;
  /** The model's settings (createLocalModel's options). */
  readonly settings: LocalModelOptions;
  readonly modelId: string;
  readonly signal: AbortSignal;
  readonly emit: (part: LanguageModelV4StreamPart) => void;
}

/**
 * Runs one generation and writes its parts. Rejects only when aborted (the stream then
 * errors with the abort reason); other failures are written as an `error` part.
 *
 * The answer never outgrows the context: its token limit (the call's `maxOutputTokens`,
 * else the model's `maxTokens`) is lowered to the room the prompt leaves, and an answer
 * cut there ends with finish reason `length` (raw `contextFull`) and keeps its text. A
 * prompt that leaves no room is a `CONTEXT_LENGTH_EXCEEDED` error.
 */
export async function generate(generation: Generation): Promise<void> {
  const { session, plan, options, settings, modelId, signal, emit } = generation;
  const { runtime, sequence, chatWrapper } = session;
  const writer = new BlockWriter(emit);
  const before = sequence.tokenMeter.getState();
  const chat = new runtime.module.LlamaChat({ contextSequence: sequence, chatWrapper });
  const wanted = options.maxOutputTokens ?? settings.maxTokens ?? DEFAULT_LOCAL_MAX_TOKENS;
  const progress: AnswerProgress = { tokens: 0, limit: wanted };
  const sampling = samplingFor(session, options, settings, signal, progress);
  let capped = false;
  /** The token limit for `history`; throws when the prompt leaves no room. */
  const budget = (history: readonly ChatHistoryItem[], functions?: ChatModelFunctions) => {
    const promptTokens = countPromptTokens(session, history, functions);
    const room = session.context.contextSize - promptTokens - CONTEXT_MARGIN;
    if (room < 1) throw contextFull(session, modelId, promptTokens);
    capped = room < wanted;
    progress.limit = Math.min(wanted, room);
    return progress.limit;
  };
  /** `length` for an answer the end of the context cut. */
  const cutByContext = (stopReason: string): boolean => stopReason === "maxTokens" && capped;
  const onResponseChunk = (chunk: LlamaChatResponseChunk) => {
    progress.tokens += chunk.tokens.length;
    if (chunk.type === undefined) {
      writer.text(chunk.text);
    } else {
      writer.reasoning(chunk.text);
      if (chunk.segmentEndTime) writer.endReasoning();
    }
  };

  emit({ type: "stream-start", warnings: plan.warnings });
  emit({ type: "response-metadata", modelId, timestamp: new Date() });
  try {
    if (plan.forced) {
      const grammar = await grammarFor(session, forcedToolsSchema(plan.forced));
      const history: ChatHistoryItem[] = [
        ...plan.history,
        { type: "system", text: forcedToolsInstruction(session, plan.forced) },
      ];
      const maxTokens = budget(history);
      const result = await chat.generateResponse(history, {
        ...sampling.grammar,
        maxTokens,
        grammar,
      });
      // A call cut by the end of the context cannot be parsed, and there is no text to keep.
      if (cutByContext(result.metadata.stopReason)) throw contextFull(session, modelId);
      const call = parseForcedCall(result.response, result.metadata.stopReason, plan, modelId);
      emit({ type: "tool-call", toolCallId: newToolCallId(), ...call });
      emit({
        type: "finish",
        usage: usageSince(sequence, before),
        finishReason: finishReason(result.metadata.stopReason, true),
      });
      return;
    }

    const grammar = plan.json
      ? await grammarFor(
          session,
          plan.json.schema === undefined ? undefined : toGrammarSchema(plan.json.schema),
        )
      : undefined;
    const result: LlamaChatResponse<ChatModelFunctions> = grammar
      ? await chat.generateResponse(plan.history, {
          ...sampling.grammar,
          maxTokens: budget(plan.history),
          onResponseChunk,
          grammar,
        })
      : await chat.generateResponse(plan.history, {
          ...sampling.text,
          maxTokens: budget(plan.history, plan.functions),
          onResponseChunk,
          // One call per answer: the agent runs it and asks again with its result. Small
          // models otherwise repeat a call until the token limit.
          ...(plan.functions
            ? {
                functions: plan.functions,
                documentFunctionParams: true,
                maxParallelFunctionCalls: 1,
              }
            : {}),
        });
    writer.end();
    const calls = result.functionCalls ?? [];
    for (const call of calls) {
      const tool = plan.tools.get(call.functionName);
      emit({
        type: "tool-call",
        toolCallId: newToolCallId(),
        toolName: call.functionName,
        input: JSON.stringify(dropOptionalNulls(call.params ?? {}, tool?.inputSchema)),
      });
    }
    emit({
      type: "finish",
      usage: usageSince(sequence, before),
      finishReason:
        calls.length === 0 && cutByContext(result.metadata.stopReason)
          ? { unified: "length", raw: "contextFull" }
          : finishReason(result.metadata.stopReason, calls.length > 0),
    });
  } catch (error) {
    if (signal.aborted) throw abortReason(signal);
    writer.end();
    const full =
      (isXzatomaError(error) && error.code === "CONTEXT_LENGTH_EXCEEDED") ||
      isContextShiftFailure(error);
    if (full && writer.wroteText) {
      // What the model wrote before the context ran out is the answer so far.
      emit({
        type: "finish",
        usage: usageSince(sequence, before),
        finishReason: { unified: "length", raw: "contextFull" },
      });
      return;
    }
    let failure: unknown = error;
    if (full && !isXzatomaError(error)) failure = contextFull(session, modelId);
    else if (!isXzatomaError(error)) {
      failure = new ProviderError(`The local model ${modelId} failed: ${describeError(error)}`, {
        cause: error,
        fields: { provider: "local", model: modelId },
      });
    }
    emit({ type: "error", error: failure });
    emit({
      type: "finish",
      usage: usageSince(sequence, before),
      finishReason: { unified: "error", raw: undefined },
    });
  } finally {
    chat.dispose({ disposeSequence: false });
  }
}
