import { randomUUID } from "node:crypto";
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
import { describeError, InvalidArgumentError, ProviderError } from "@xzatoma/core";
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

/** Context size used when none is given (capped at the model's training context). */
export const DEFAULT_LOCAL_CONTEXT_SIZE = 4096;
/** Most tokens one response may have when neither the call nor the model sets a limit. */
export const DEFAULT_LOCAL_MAX_TOKENS = 2048;

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
  /** Most tokens per response when the call sets no `maxOutputTokens`. Default 2048. */
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

function toolCallId(): string {
  return `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
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

  constructor(private readonly emit: (part: LanguageModelV4StreamPart) => void) {}

  text(delta: string): void {
    if (delta === "") return;
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

  /**
   * Runs one generation and writes its parts. Rejects only when aborted (the stream then
   * errors with the abort reason); other failures are written as an `error` part.
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
    const settings = {
      signal,
      maxTokens: options.maxOutputTokens ?? this.#options.maxTokens ?? DEFAULT_LOCAL_MAX_TOKENS,
      ...((options.temperature ?? this.#options.temperature) === undefined
        ? {}
        : { temperature: options.temperature ?? this.#options.temperature }),
      ...(options.topP === undefined ? {} : { topP: options.topP }),
      ...(options.topK === undefined ? {} : { topK: options.topK }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.stopSequences?.length ? { customStopTriggers: options.stopSequences } : {}),
      ...(options.presencePenalty === undefined && options.frequencyPenalty === undefined
        ? {}
        : {
            repeatPenalty: {
              ...(options.presencePenalty === undefined
                ? {}
                : { presencePenalty: options.presencePenalty }),
              ...(options.frequencyPenalty === undefined
                ? {}
                : { frequencyPenalty: options.frequencyPenalty }),
            },
          }),
    };
    const onResponseChunk = (chunk: LlamaChatResponseChunk) => {
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
        const result = await chat.generateResponse(history, { ...settings, grammar });
        const call = this.#parseForcedCall(result.response, result.metadata.stopReason, plan);
        emit({ type: "tool-call", toolCallId: toolCallId(), ...call });
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
        ? await chat.generateResponse(plan.history, { ...settings, onResponseChunk, grammar })
        : await chat.generateResponse(plan.history, {
            ...settings,
            onResponseChunk,
            ...(plan.functions ? { functions: plan.functions, documentFunctionParams: true } : {}),
          });
      writer.end();
      const calls = result.functionCalls ?? [];
      for (const call of calls) {
        const tool = plan.tools.get(call.functionName);
        emit({
          type: "tool-call",
          toolCallId: toolCallId(),
          toolName: call.functionName,
          input: JSON.stringify(dropOptionalNulls(call.params ?? {}, tool?.inputSchema)),
        });
      }
      emit({
        type: "finish",
        usage: usageSince(sequence, before),
        finishReason: finishReason(result.metadata.stopReason, calls.length > 0),
      });
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
      writer.end();
      emit({
        type: "error",
        error:
          error instanceof ProviderError
            ? error
            : new ProviderError(`The local model ${this.modelId} failed: ${describeError(error)}`, {
                cause: error,
              }),
      });
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
        { cause: error },
      );
    }
    const { name, arguments: input } = (parsed ?? {}) as { name?: unknown; arguments?: unknown };
    const tool = typeof name === "string" ? plan.tools.get(name) : undefined;
    if (!tool) {
      throw new ProviderError(`The local model ${this.modelId} called an unknown tool.`);
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
