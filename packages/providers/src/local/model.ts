import path from "node:path";
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4FunctionTool,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
  SharedV4Warning,
} from "@ai-sdk/provider";
import {
  describeError,
  InvalidArgumentError,
  isXzatomaError,
  ProviderError,
  XzatomaError,
} from "@xzatoma/core";
import type {
  ChatHistoryItem,
  ChatModelFunctions,
  ChatWrapper,
  GbnfJsonSchema,
  LlamaChatResponse,
  LlamaChatResponseChunk,
  LlamaContext,
  LlamaContextSequence,
  LlamaGrammar,
  LlamaModel,
  Token,
  TokenBias,
  TokenMeterState,
} from "node-llama-cpp";
import { toChatHistory } from "./prompt.js";
import {
  checkModelFile,
  LOCAL_RUNTIME_PACKAGE,
  loadModel,
  runtimeEpoch,
  type LoadedRuntime,
} from "./runtime.js";
import { dropOptionalNulls, toGrammarSchema, type GrammarSchema } from "./schema.js";
import { newToolCallId } from "../tool-call-id.js";

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

/**
 * Tokens kept free between the prompt plus the longest answer and the end of the context.
 * llama.cpp needs the answer to fit: when it does not, node-llama-cpp shifts the context,
 * dropping the conversation's start, and fails when that is not enough.
 */
const CONTEXT_MARGIN = 8;

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

interface Session {
  readonly epoch: number;
  readonly runtime: LoadedRuntime;
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  readonly sequence: LlamaContextSequence;
  readonly chatWrapper: ChatWrapper;
  readonly grammars: Map<string, Promise<LlamaGrammar>>;
}

interface ToolPlan {
  readonly tools: ReadonlyMap<string, LanguageModelV4FunctionTool>;
  /** Offered to the model, which may call them (tool choice `auto`). */
  readonly functions?: ChatModelFunctions;
  /** The model must call one of these (tool choice `required` or a named tool). */
  readonly forced?: readonly LanguageModelV4FunctionTool[];
}

interface RequestPlan extends ToolPlan {
  readonly history: ChatHistoryItem[];
  readonly warnings: SharedV4Warning[];
  readonly json?: { readonly schema?: unknown };
}

const MAX_CACHED_GRAMMARS = 16;

/**
 * A grammar for JSON matching `schema`, written compactly. node-llama-cpp's own JSON Schema
 * grammar lets the model indent with newlines and ends with four newlines: a third of the
 * tokens of a small tool call. Its whitespace rules are rewritten to single optional spaces
 * and its end to the end of the JSON; if the grammar text ever looks different, it is
 * used unchanged.
 */
async function createJsonSchemaGrammar(
  session: Session,
  schema: GrammarSchema,
): Promise<LlamaGrammar> {
  const { llama } = session.runtime;
  // The method's generic signature wants a literal schema type; ours is built at run time.
  const create = llama.createGrammarForJsonSchema.bind(llama) as (
    schema: GbnfJsonSchema,
  ) => Promise<LlamaGrammar>;
  const grammar = await create(schema as GbnfJsonSchema);
  const root = /^root ::= (\S+) "\\n\\n\\n\\n" \[\\n\]\*$/m;
  if (!root.test(grammar.grammar)) return grammar;
  const compact = grammar.grammar
    .replace(root, "root ::= $1")
    .replace(/^(comma-whitespace-b-\d+-\d+-rule) ::= .*$/gm, '$1 ::= "," [ ]?')
    .replace(/^(whitespace-b-\d+-\d+-rule) ::= .*$/gm, "$1 ::= [ ]?");
  try {
    return await llama.createGrammar({ grammar: compact, trimWhitespaceSuffix: true });
  } catch {
    return grammar;
  }
}

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

function finishReason(stopReason: string, calledTools: boolean): LanguageModelV4FinishReason {
  if (calledTools) return { unified: "tool-calls", raw: stopReason };
  switch (stopReason) {
    case "maxTokens":
      return { unified: "length", raw: stopReason };
    case "abort":
      return { unified: "other", raw: stopReason };
    default:
      return { unified: "stop", raw: stopReason };
  }
}

function usageSince(sequence: LlamaContextSequence, before: TokenMeterState): LanguageModelV4Usage {
  const { usedInputTokens, usedOutputTokens } = sequence.tokenMeter.diff(before);
  // The context holds the whole prompt (reused from the cache or evaluated now) and the answer.
  const inputTotal = Math.max(usedInputTokens, sequence.nextTokenIndex - usedOutputTokens);
  return {
    inputTokens: {
      total: inputTotal,
      noCache: usedInputTokens,
      cacheRead: inputTotal - usedInputTokens,
      cacheWrite: undefined,
    },
    outputTokens: { total: usedOutputTokens, text: undefined, reasoning: undefined },
  };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The request was aborted.", "AbortError");
}

/** Resolves when `promise` does, rejects when `signal` aborts first. */
function raceAbort(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    void promise.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}

/** Writes text and reasoning deltas as well-formed start/delta/end blocks. */
class BlockWriter {
  #text: string | undefined;
  #reasoning: string | undefined;
  #blocks = 0;
  /** Whether any text (not reasoning) was written. */
  wroteText = false;

  constructor(private readonly emit: (part: LanguageModelV4StreamPart) => void) {}

  text(delta: string): void {
    if (delta === "") return;
    this.wroteText = true;
    this.endReasoning();
    if (this.#text === undefined) {
      this.#text = `text-${this.#blocks++}`;
      this.emit({ type: "text-start", id: this.#text });
    }
    this.emit({ type: "text-delta", id: this.#text, delta });
  }

  reasoning(delta: string): void {
    if (delta === "") return;
    this.endText();
    if (this.#reasoning === undefined) {
      this.#reasoning = `reasoning-${this.#blocks++}`;
      this.emit({ type: "reasoning-start", id: this.#reasoning });
    }
    this.emit({ type: "reasoning-delta", id: this.#reasoning, delta });
  }

  endText(): void {
    if (this.#text === undefined) return;
    this.emit({ type: "text-end", id: this.#text });
    this.#text = undefined;
  }

  endReasoning(): void {
    if (this.#reasoning === undefined) return;
    this.emit({ type: "reasoning-end", id: this.#reasoning });
    this.#reasoning = undefined;
  }

  end(): void {
    this.endReasoning();
    this.endText();
  }
}

function planTools(options: LanguageModelV4CallOptions, warnings: SharedV4Warning[]): ToolPlan {
  const tools = new Map<string, LanguageModelV4FunctionTool>();
  for (const tool of options.tools ?? []) {
    if (tool.type === "function") tools.set(tool.name, tool);
    else warnings.push({ type: "unsupported", feature: `provider tool ${tool.name}` });
  }
  const choice = options.toolChoice ?? { type: "auto" };
  if (tools.size === 0) {
    if (choice.type === "required" || choice.type === "tool") {
      throw new InvalidArgumentError(
        "The request requires a tool call but offers no tools to the local model.",
      );
    }
    return { tools };
  }
  switch (choice.type) {
    case "none":
      return { tools };
    case "required":
      return { tools, forced: [...tools.values()] };
    case "tool": {
      const tool = tools.get(choice.toolName);
      if (!tool) {
        throw new InvalidArgumentError(
          `The request requires a call of the tool '${choice.toolName}', which is not among its tools (${[...tools.keys()].join(", ")}).`,
        );
      }
      return { tools, forced: [tool] };
    }
    case "auto":
      return { tools, functions: toFunctions(tools.values()) };
  }
}

function planRequest(options: LanguageModelV4CallOptions, parallelCalls: boolean): RequestPlan {
  const warnings: SharedV4Warning[] = [];
  const tools = planTools(options, warnings);
  const { history, warnings: promptWarnings } = toChatHistory(options.prompt, { parallelCalls });
  warnings.push(...promptWarnings);
  let json: RequestPlan["json"];
  if (options.responseFormat?.type === "json") {
    if (tools.forced || tools.functions) {
      warnings.push({
        type: "unsupported",
        feature: "responseFormat",
        details: "A JSON response format cannot be combined with tool calls; it was ignored.",
      });
    } else {
      json = { schema: options.responseFormat.schema };
    }
  }
  if (options.reasoning !== undefined && options.reasoning !== "provider-default") {
    warnings.push({ type: "unsupported", feature: "reasoning" });
  }
  return { ...tools, history, warnings, ...(json ? { json } : {}) };
}

function toFunctions(tools: Iterable<LanguageModelV4FunctionTool>): ChatModelFunctions {
  const functions: Record<string, ChatModelFunctions[string]> = {};
  for (const tool of tools) {
    functions[tool.name] = {
      ...(tool.description ? { description: tool.description } : {}),
      params: toGrammarSchema(tool.inputSchema) as GbnfJsonSchema,
    };
  }
  return functions;
}

/** Tells the model to call a tool, with the tools written as TypeScript signatures. */
function forcedToolsInstruction(
  session: Session,
  tools: readonly LanguageModelV4FunctionTool[],
): string {
  const { ChatModelFunctionsDocumentationGenerator } = session.runtime.module;
  const signatures = new ChatModelFunctionsDocumentationGenerator(
    toFunctions(tools),
  ).getTypeScriptFunctionSignatures({ documentParams: true });
  return [
    'Call one of these functions now. Answer only with a JSON object {"name": <function name>, "arguments": <its params>}.',
    "```typescript",
    signatures,
    "```",
  ].join("\n");
}

function forcedToolsSchema(tools: readonly LanguageModelV4FunctionTool[]): GrammarSchema {
  return {
    oneOf: tools.map((tool) => ({
      type: "object",
      properties: {
        name: { const: tool.name },
        arguments: toGrammarSchema(tool.inputSchema),
      },
    })),
  };
}

class LocalModel implements LocalLanguageModel {
  readonly specificationVersion = "v4";
  readonly provider = "local";
  readonly modelId: string;
  readonly modelPath: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};

  readonly #options: LocalModelOptions;
  readonly #runtimeModule: string;
  #session: Promise<Session> | undefined;
  #tail: Promise<void> = Promise.resolve();

  constructor(options: LocalModelOptions) {
    this.#options = options;
    this.modelPath = path.resolve(options.modelPath);
    this.modelId = options.modelId ?? path.basename(this.modelPath).replace(/\.gguf$/i, "");
    this.#runtimeModule = options.runtimeModule ?? LOCAL_RUNTIME_PACKAGE;
  }

  async load(): Promise<void> {
    await this.#getSession();
  }

  async #getSession(): Promise<Session> {
    for (;;) {
      if (!this.#session) {
        const started = this.#startSession();
        this.#session = started;
        started.catch(() => {
          if (this.#session === started) this.#session = undefined;
        });
      }
      const pending = this.#session;
      const session = await pending;
      if (session.epoch === runtimeEpoch() && !session.context.disposed) return session;
      // disposeLocalModels() freed it: load again.
      if (this.#session === pending) this.#session = undefined;
    }
  }

  async #startSession(): Promise<Session> {
    const epoch = runtimeEpoch();
    const { runtime, model } = await loadModel(this.modelPath, this.#runtimeModule);
    const contextSize =
      this.#options.contextSize ?? Math.min(DEFAULT_LOCAL_CONTEXT_SIZE, model.trainContextSize);
    let context: LlamaContext;
    try {
      context = await model.createContext({
        contextSize,
        sequences: 1,
        // node-llama-cpp's default (at least 4 threads) oversubscribes small machines, and
        // llama.cpp's spinning threads then crawl: default to the cores useful for math.
        threads: this.#options.threads ?? Math.max(1, runtime.llama.cpuMathCores),
      });
    } catch (error) {
      throw new ProviderError(
        `Cannot create a context of ${contextSize} tokens for the local model ${this.modelPath}: ${describeError(error)}. Try a smaller contextSize.`,
        { cause: error },
      );
    }
    return {
      epoch,
      runtime,
      model,
      context,
      sequence: context.getSequence(),
      chatWrapper: runtime.module.resolveChatWrapper(model),
      grammars: new Map(),
    };
  }

  /** Waits for the requests before this one: the model has one context sequence. */
  async #acquire(signal: AbortSignal | undefined): Promise<() => void> {
    const previous = this.#tail;
    let release = () => {};
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.#tail = previous.then(() => mine);
    try {
      await raceAbort(previous, signal);
    } catch (error) {
      void previous.then(release);
      throw error;
    }
    return release;
  }

  #grammar(session: Session, schema: GrammarSchema | undefined): Promise<LlamaGrammar> {
    const key = schema === undefined ? "json" : JSON.stringify(schema);
    let grammar = session.grammars.get(key);
    if (!grammar) {
      grammar =
        schema === undefined
          ? session.runtime.llama.getGrammarFor("json")
          : createJsonSchemaGrammar(session, schema);
      if (session.grammars.size >= MAX_CACHED_GRAMMARS) session.grammars.clear();
      session.grammars.set(key, grammar);
      const pending = grammar;
      pending.catch(() => session.grammars.delete(key));
    }
    return grammar;
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    options.abortSignal?.throwIfAborted();
    const session = await this.#getSession();
    const plan = planRequest(options, session.chatWrapper.settings.functions.parallelism != null);
    const release = await this.#acquire(options.abortSignal);

    const abort = new AbortController();
    const onAbort = () => abort.abort(abortReason(options.abortSignal as AbortSignal));
    options.abortSignal?.addEventListener("abort", onAbort, { once: true });
    if (options.abortSignal?.aborted) onAbort();

    let finished = false;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start: (controller) => {
        const emit = (part: LanguageModelV4StreamPart) => {
          if (!finished) controller.enqueue(part);
        };
        void this.#generate(session, plan, options, abort.signal, emit)
          .then(
            () => {
              if (!finished) controller.close();
            },
            (reason: unknown) => {
              if (!finished) controller.error(reason);
            },
          )
          .finally(() => {
            finished = true;
            options.abortSignal?.removeEventListener("abort", onAbort);
            release();
          });
      },
      cancel: (reason) => {
        finished = true;
        abort.abort(reason ?? new DOMException("The stream was cancelled.", "AbortError"));
      },
    });
    return { stream, request: { body: { modelPath: this.modelPath } } };
  }

  /** Tokens of `history` as the model reads it, with `functions` documented. */
  #promptTokens(
    session: Session,
    history: readonly ChatHistoryItem[],
    functions: ChatModelFunctions | undefined,
  ): number {
    const last = history.at(-1);
    const withAnswer: ChatHistoryItem[] =
      last?.type === "model" ? [...history] : [...history, { type: "model", response: [] }];
    const { contextText } = session.chatWrapper.generateContextState({
      chatHistory: withAnswer,
      ...(functions ? { availableFunctions: functions, documentFunctionParams: true } : {}),
    });
    return contextText.tokenize(session.model.tokenizer).length;
  }

  #contextFull(session: Session, promptTokens?: number): XzatomaError {
    const contextSize = session.context.contextSize;
    const needs =
      promptTokens === undefined
        ? ""
        : `, and the conversation takes ${promptTokens} of them before the answer`;
    return new XzatomaError(
      "CONTEXT_LENGTH_EXCEEDED",
      `The local model ${this.modelId} has a context of ${contextSize} tokens${needs}: nothing more fits.`,
      {
        fields: {
          provider: "local",
          model: this.modelId,
          contextSize,
          ...(promptTokens === undefined ? {} : { promptTokens }),
        },
      },
    );
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
  async #generate(
    session: Session,
    plan: RequestPlan,
    options: LanguageModelV4CallOptions,
    signal: AbortSignal,
    emit: (part: LanguageModelV4StreamPart) => void,
  ): Promise<void> {
    const { runtime, sequence, chatWrapper } = session;
    const writer = new BlockWriter(emit);
    const before = sequence.tokenMeter.getState();
    const chat = new runtime.module.LlamaChat({ contextSequence: sequence, chatWrapper });
    const wanted = options.maxOutputTokens ?? this.#options.maxTokens ?? DEFAULT_LOCAL_MAX_TOKENS;
    const callPenalties = {
      ...(options.presencePenalty === undefined
        ? {}
        : { presencePenalty: options.presencePenalty }),
      ...(options.frequencyPenalty === undefined
        ? {}
        : { frequencyPenalty: options.frequencyPenalty }),
    };
    const configured: LocalSampling = { ...DEFAULT_LOCAL_SAMPLING, ...this.#options.sampling };
    const temperature = options.temperature ?? this.#options.temperature ?? configured.temperature;
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
    // JSON forced by a grammar keeps node-llama-cpp's own repeat penalty: JSON repeats its
    // quotes and braces by nature.
    const grammarSampling = {
      ...sampling,
      ...(Object.keys(callPenalties).length > 0 ? { repeatPenalty: callPenalties } : {}),
    };
    const endBias = configured.endOfAnswerBias;
    const endTokens = [session.model.tokens.eos, session.model.tokens.eot].filter(
      (token): token is Token => token !== null,
    );
    let answerTokens = 0;
    let answerLimit = wanted;
    const textSampling = {
      ...sampling,
      ...(endBias && endTokens.length > 0
        ? {
            tokenBias: () => {
              // Starts no later than half way to the answer's token limit.
              const start = Math.min(endBias.after, Math.floor(answerLimit / 2));
              const logit = (answerTokens - start) * endBias.perToken;
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
    let capped = false;
    /** The token limit for `history`; throws when the prompt leaves no room. */
    const budget = (history: readonly ChatHistoryItem[], functions?: ChatModelFunctions) => {
      const promptTokens = this.#promptTokens(session, history, functions);
      const room = session.context.contextSize - promptTokens - CONTEXT_MARGIN;
      if (room < 1) throw this.#contextFull(session, promptTokens);
      capped = room < wanted;
      answerLimit = Math.min(wanted, room);
      return answerLimit;
    };
    /** `length` for an answer the end of the context cut. */
    const cutByContext = (stopReason: string): boolean => stopReason === "maxTokens" && capped;
    const onResponseChunk = (chunk: LlamaChatResponseChunk) => {
      answerTokens += chunk.tokens.length;
      if (chunk.type === undefined) {
        writer.text(chunk.text);
      } else {
        writer.reasoning(chunk.text);
        if (chunk.segmentEndTime) writer.endReasoning();
      }
    };

    emit({ type: "stream-start", warnings: plan.warnings });
    emit({ type: "response-metadata", modelId: this.modelId, timestamp: new Date() });
    try {
      if (plan.forced) {
        const grammar = await this.#grammar(session, forcedToolsSchema(plan.forced));
        const history: ChatHistoryItem[] = [
          ...plan.history,
          { type: "system", text: forcedToolsInstruction(session, plan.forced) },
        ];
        const maxTokens = budget(history);
        const result = await chat.generateResponse(history, {
          ...grammarSampling,
          maxTokens,
          grammar,
        });
        // A call cut by the end of the context cannot be parsed, and there is no text to keep.
        if (cutByContext(result.metadata.stopReason)) throw this.#contextFull(session);
        const call = this.#parseForcedCall(result.response, result.metadata.stopReason, plan);
        emit({ type: "tool-call", toolCallId: newToolCallId(), ...call });
        emit({
          type: "finish",
          usage: usageSince(sequence, before),
          finishReason: finishReason(result.metadata.stopReason, true),
        });
        return;
      }

      const grammar = plan.json
        ? await this.#grammar(
            session,
            plan.json.schema === undefined ? undefined : toGrammarSchema(plan.json.schema),
          )
        : undefined;
      const result: LlamaChatResponse<ChatModelFunctions> = grammar
        ? await chat.generateResponse(plan.history, {
            ...grammarSampling,
            maxTokens: budget(plan.history),
            onResponseChunk,
            grammar,
          })
        : await chat.generateResponse(plan.history, {
            ...textSampling,
            maxTokens: budget(plan.history, plan.functions),
            onResponseChunk,
            ...(plan.functions ? { functions: plan.functions, documentFunctionParams: true } : {}),
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
      if (full && !isXzatomaError(error)) failure = this.#contextFull(session);
      else if (!isXzatomaError(error)) {
        failure = new ProviderError(
          `The local model ${this.modelId} failed: ${describeError(error)}`,
          { cause: error, fields: { provider: "local", model: this.modelId } },
        );
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

  #parseForcedCall(
    text: string,
    stopReason: string,
    plan: RequestPlan,
  ): { toolName: string; input: string } {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      const hint =
        stopReason === "maxTokens"
          ? " It ran out of tokens: raise maxOutputTokens (or the model's maxTokens)."
          : "";
      throw new ProviderError(
        `The local model ${this.modelId} did not finish its tool call.${hint}`,
        { cause: error, fields: { provider: "local", model: this.modelId } },
      );
    }
    const { name, arguments: input } = (parsed ?? {}) as { name?: unknown; arguments?: unknown };
    const tool = typeof name === "string" ? plan.tools.get(name) : undefined;
    if (!tool) {
      throw new ProviderError(`The local model ${this.modelId} called an unknown tool.`, {
        fields: { provider: "local", model: this.modelId },
      });
    }
    return {
      toolName: tool.name,
      input: JSON.stringify(dropOptionalNulls(input ?? {}, tool.inputSchema)),
    };
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const { stream } = await this.doStream(options);
    const content: LanguageModelV4Content[] = [];
    const texts = new Map<string, { type: "text" | "reasoning"; text: string }>();
    let warnings: SharedV4Warning[] = [];
    let finish: Extract<LanguageModelV4StreamPart, { type: "finish" }> | undefined;
    let modelId = this.modelId;
    let timestamp = new Date();
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        switch (part.type) {
          case "stream-start":
            warnings = part.warnings;
            break;
          case "response-metadata":
            modelId = part.modelId ?? modelId;
            timestamp = part.timestamp ?? timestamp;
            break;
          case "text-start":
          case "reasoning-start": {
            const block = { type: part.type === "text-start" ? "text" : "reasoning", text: "" };
            texts.set(part.id, block as { type: "text" | "reasoning"; text: string });
            content.push(block as LanguageModelV4Content);
            break;
          }
          case "text-delta":
          case "reasoning-delta": {
            const block = texts.get(part.id);
            if (block) block.text += part.delta;
            break;
          }
          case "tool-call":
            content.push(part);
            break;
          case "error":
            throw part.error;
          case "finish":
            finish = part;
            break;
          default:
            break;
        }
      }
    } finally {
      reader.releaseLock();
    }
    if (!finish)
      throw new ProviderError(`The local model ${this.modelId} ended without finishing.`);
    return {
      content,
      finishReason: finish.finishReason,
      usage: finish.usage,
      warnings,
      response: { modelId, timestamp },
    };
  }
}

/**
 * Creates an AI SDK language model that runs a GGUF model in this process through the
 * optional package node-llama-cpp (CPU build, no network). The model is loaded on the
 * first request, or by `load()`, and shared by every local model of the same file until
 * {@link disposeLocalModels}. Requests to one model run one at a time.
 *
 * Tool calls use the model's own chat template through node-llama-cpp's function calling
 * (tool choice `auto`); with tool choice `required` or a named tool, a grammar makes the
 * model answer with a call.
 *
 * Throws a `LocalModelUnavailableError` at once when the file is missing or is not GGUF;
 * a missing node-llama-cpp surfaces on `load()` or the first request.
 *
 * @example
 * const model = createLocalModel({ modelPath: "/models/qwen2.5-1.5b-instruct-q4_k_m.gguf" });
 * const agent = new Agent({ model, tools });
 */
export function createLocalModel(options: LocalModelOptions): LocalLanguageModel {
  const modelPath = path.resolve(options.modelPath);
  checkModelFile(modelPath);
  for (const key of ["contextSize", "threads", "maxTokens"] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
      throw new InvalidArgumentError(`The local model's ${key} must be a positive integer.`);
    }
  }
  return new LocalModel({ ...options, modelPath });
}

/**
 * Creates a local model and loads it at once: resolves when it is ready to answer.
 * Rejects with a `LocalModelUnavailableError` naming the missing package or file.
 */
export async function loadLocalModel(options: LocalModelOptions): Promise<LocalLanguageModel> {
  const model = createLocalModel(options);
  await model.load();
  return model;
}
