import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import {
  assistantMessage,
  createConversation,
  systemMessage,
  toolMessage,
  userMessage,
  type Conversation,
  type ConversationOptions,
  type ConversationUpdate,
  type Message,
  type ToolCall,
} from "@xzatoma/conversation";
import type { AgentEvent, AgentEventError } from "./agent-event.js";
import { resolveAgentLimits, type AgentLimits, type StopReason } from "./agent-limits.js";
import {
  describeError,
  InvalidArgumentError,
  isXzatomaError,
  ProviderError,
  XzatomaError,
} from "./errors.js";
import { toModelPrompt, toModelTools } from "./model-prompt.js";
import {
  createToolRegistry,
  type ApprovalHandler,
  type ToolAuditSink,
  type ToolRegistry,
} from "./tool-registry.js";
import { toolResultToModelText } from "./tool-result.js";
import type { Tool } from "./tool.js";
import { addUsage, EMPTY_USAGE, type Usage } from "./usage.js";

/** Call settings passed through to the model on every request. */
export type ModelCallSettings = Pick<
  LanguageModelV4CallOptions,
  "maxOutputTokens" | "temperature" | "topP" | "seed" | "providerOptions" | "headers"
>;

/** Options of {@link Agent}. */
export interface AgentOptions {
  /** The model to talk to: an AI SDK language model (specification v4). */
  readonly model: LanguageModelV4;
  /** The tools the model may call: a registry, or a list to register in a new one. */
  readonly tools?: ToolRegistry | readonly Tool[];
  /** The system prompt, sent first on every request. */
  readonly systemPrompt?: string;
  /** Overrides of {@link DEFAULT_AGENT_LIMITS}. */
  readonly limits?: Partial<AgentLimits>;
  /** Asked before any tool call that does more than read. Without it such calls are refused. */
  readonly approve?: ApprovalHandler;
  /** Receives one entry per tool-call decision and per executed call. */
  readonly audit?: ToolAuditSink;
  /** Earlier messages to continue from (system messages excluded). */
  readonly history?: readonly Message[];
  /**
   * Context management: the model's window (`maxTokens`), pruning threshold, turns kept,
   * warning and critical levels, tokenizer. Default: no pruning (a window of 1M tokens).
   */
  readonly context?: ConversationOptions;
  /** Messages kept in context whatever pruning decides (an active plan, project instructions). */
  readonly pinned?: readonly string[];
  readonly callSettings?: ModelCallSettings;
}

/** Options of one run. */
export interface AgentRunOptions {
  /** Cancels the run: the model request and any running tool are aborted. */
  readonly signal?: AbortSignal;
  /** Receives every event of the run, in order. */
  readonly onEvent?: (event: AgentEvent) => void;
}

/** How a run ended. */
export interface AgentResult {
  readonly stopReason: StopReason;
  /** The final answer, or the last text the model produced before the run stopped. */
  readonly text: string;
  readonly turns: number;
  readonly toolCalls: number;
  readonly usage: Usage;
  readonly durationMs: number;
  /** Set when `stopReason` is `error`. */
  readonly error?: AgentEventError;
}

interface ModelResponse {
  readonly text: string;
  readonly toolCalls: ToolCall[];
  readonly usage: Usage;
}

function toUsage(usage: LanguageModelV4Usage | undefined): Usage {
  const inputTokens = usage?.inputTokens.total ?? 0;
  const outputTokens = usage?.outputTokens.total ?? 0;
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

function parseToolInput(input: string): unknown {
  try {
    return input.trim() === "" ? {} : JSON.parse(input);
  } catch {
    return input;
  }
}

function toEventError(error: unknown): AgentEventError {
  if (isXzatomaError(error)) return { code: error.code, message: error.message };
  return { code: "PROVIDER_ERROR", message: describeError(error) };
}

class StopRun extends Error {
  constructor(readonly reason: StopReason) {
    super(reason);
  }
}

/**
 * An autonomous agent: it sends the conversation to the model, runs the tool calls the
 * model asks for, feeds the results back, and repeats until the model gives a final
 * answer or a limit stops the run. One `Agent` holds one conversation; successive
 * `run` calls continue it.
 *
 * @example
 * const agent = new Agent({ model, tools: [createReadFileTool({ root })] });
 * const result = await agent.run("What does README.md say?");
 * console.log(result.stopReason, result.text);
 */
export class Agent {
  readonly #model: LanguageModelV4;
  readonly #registry: ToolRegistry;
  readonly #limits: AgentLimits;
  readonly #approve: ApprovalHandler | undefined;
  readonly #audit: ToolAuditSink | undefined;
  readonly #callSettings: ModelCallSettings;
  readonly #conversation: Conversation;
  #running = false;
  #turnForEvents = 0;
  #emit: ((event: AgentEvent) => void) | undefined;

  constructor(options: AgentOptions) {
    this.#model = options.model;
    this.#limits = resolveAgentLimits(options.limits);
    this.#approve = options.approve;
    this.#audit = options.audit;
    this.#callSettings = options.callSettings ?? {};
    this.#conversation = createConversation(
      options.context ?? { maxTokens: 1_000_000, pruneThreshold: false },
    );
    if (options.systemPrompt)
      this.#conversation.append(systemMessage(options.systemPrompt), { pinned: true });
    for (const text of options.pinned ?? [])
      this.#conversation.append(systemMessage(text), { pinned: true });
    for (const message of options.history ?? []) {
      if (message.role !== "system") this.#conversation.append(message);
    }
    if (options.tools && !Array.isArray(options.tools)) {
      this.#registry = options.tools as ToolRegistry;
    } else {
      this.#registry = createToolRegistry();
      for (const tool of (options.tools as readonly Tool[] | undefined) ?? [])
        this.#registry.register(tool);
    }
  }

  /** The conversation so far, pruned parts included (without system messages and summaries). */
  get messages(): readonly Message[] {
    return this.#conversation
      .entries()
      .filter((entry) => !entry.summary && entry.message.role !== "system")
      .map((entry) => entry.message);
  }

  /** The managed conversation: what the model sees, token status, pruning, summary. */
  get conversation(): Conversation {
    return this.#conversation;
  }

  /**
   * Replaces the deterministic summary of pruned messages by one the model writes
   * (`/context summary`). Prunes first when nothing was pruned yet. Resolves with the
   * summary now in force, or undefined when there is nothing to summarise.
   */
  async summarizeContext(options: { signal?: AbortSignal } = {}): Promise<string | undefined> {
    if (this.#conversation.summary() === undefined) this.#conversation.prune();
    const current = this.#conversation.summary();
    if (current === undefined) return undefined;
    const dropped = this.#conversation
      .entries()
      .filter((entry) => entry.pruned && !entry.summary)
      .map((entry) => `${entry.message.role}: ${entry.message.content.slice(0, 2000)}`)
      .join("\n");
    const { stream } = await this.#model.doStream({
      ...this.#callSettings,
      prompt: toModelPrompt([
        systemMessage(
          "Summarise the conversation below for the assistant that continues it: goals, decisions, files touched, results, open questions. Be brief and factual.",
        ),
        userMessage(`${current}\n\nEarlier messages:\n${dropped}`),
      ]),
      ...(options.signal ? { abortSignal: options.signal } : {}),
    });
    let text = "";
    for await (const part of stream) {
      if (part.type === "text-delta") text += part.delta;
      if (part.type === "error")
        throw new ProviderError(`The summary request failed: ${describeError(part.error)}`);
    }
    if (text.trim() === "") return current;
    this.#conversation.replaceSummary(
      `Summary of earlier conversation (written by the model):\n${text.trim()}`,
    );
    return this.#conversation.summary();
  }

  /** Appends a message and reports pruning and context-level changes as events. */
  #append(message: Message): void {
    this.#report(this.#conversation.append(message));
  }

  #report(update: ConversationUpdate): void {
    const emit = this.#emit;
    if (!emit) return;
    const turn = this.#turnForEvents;
    if (update.pruned) {
      emit({
        type: "context-pruned",
        turn,
        dropped: update.pruned.dropped.length,
        toolCalls: update.pruned.toolCalls,
        tokensBefore: update.pruned.tokensBefore,
        tokensAfter: update.pruned.tokensAfter,
      });
    }
    if (update.status) {
      emit({
        type: "context-status",
        turn,
        previous: update.status.previous,
        level: update.status.level,
        tokens: update.status.status.tokens,
        maxTokens: update.status.status.maxTokens,
      });
    }
  }

  /** The limits in force. */
  get limits(): AgentLimits {
    return this.#limits;
  }

  /** The registry of the tools the model may call. */
  get tools(): ToolRegistry {
    return this.#registry;
  }

  /** Runs the agent on `input` and resolves with how the run ended. Never rejects for model or tool failures. */
  async run(input: string, options: AgentRunOptions = {}): Promise<AgentResult> {
    if (this.#running)
      throw new InvalidArgumentError(
        "This agent is already running; wait for the current run to finish.",
      );
    if (input.trim() === "")
      throw new InvalidArgumentError("The input is empty: give the agent something to do.");
    this.#running = true;
    try {
      return await this.#execute(input, options);
    } finally {
      this.#running = false;
    }
  }

  /** Runs the agent and yields its events as they happen; the generator's return value is the result. */
  async *stream(
    input: string,
    options: Omit<AgentRunOptions, "onEvent"> = {},
  ): AsyncGenerator<AgentEvent, AgentResult> {
    const queue: AgentEvent[] = [];
    let wake: (() => void) | undefined;
    let finished = false;
    const pending = this.run(input, {
      ...options,
      onEvent: (event) => {
        queue.push(event);
        wake?.();
      },
    }).finally(() => {
      finished = true;
      wake?.();
    });
    for (;;) {
      const event = queue.shift();
      if (event) {
        yield event;
        continue;
      }
      if (finished) return await pending;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  }

  async #execute(input: string, options: AgentRunOptions): Promise<AgentResult> {
    const startedAt = performance.now();
    const limits = this.#limits;
    const emit = (event: AgentEvent) => options.onEvent?.(event);
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(new StopRun("aborted"));
    options.signal?.addEventListener("abort", onCallerAbort, { once: true });
    if (options.signal?.aborted) onCallerAbort();
    const timer = setTimeout(() => controller.abort(new StopRun("timeout")), limits.timeoutMs);

    let turns = 0;
    let toolCalls = 0;
    let consecutiveToolSteps = 0;
    let usage = EMPTY_USAGE;
    let text = "";
    let error: AgentEventError | undefined;
    let stopReason: StopReason;

    const tools = toModelTools(this.#registry.specifications());
    this.#emit = emit;
    this.#turnForEvents = 0;
    emit({ type: "run-started", input, tools: this.#registry.names() });
    this.#append(userMessage(input));

    try {
      for (;;) {
        if (controller.signal.aborted) throw controller.signal.reason;
        if (turns >= limits.maxTurns) throw new StopRun("max-turns");
        turns += 1;
        this.#turnForEvents = turns;
        emit({ type: "turn-started", turn: turns });

        const estimatedSent = this.#conversation.status().tokens;
        const response = await this.#requestModel(tools, controller.signal, (delta) =>
          emit({ type: "text-delta", turn: turns, delta }),
        );
        usage = addUsage(usage, response.usage);
        emit({ type: "usage", turn: turns, usage: response.usage, totals: usage });
        // Reported input tokens are the truth for what was sent, unless they are far below the
        // estimate: servers that reuse a cached prompt prefix (Ollama) count only the new part,
        // and trusting that would let the context overflow.
        if (response.usage.inputTokens >= estimatedSent / 2) {
          this.#report(this.#conversation.recordUsage({ inputTokens: response.usage.inputTokens }));
        }
        this.#append(assistantMessage(response.text, response.toolCalls));
        if (response.text !== "") text = response.text;

        if (response.toolCalls.length === 0) {
          if (response.text.trim() === "") {
            throw new XzatomaError(
              "EMPTY_RESPONSE",
              "The model returned neither text nor tool calls.",
            );
          }
          stopReason = "completed";
          break;
        }

        if (response.toolCalls.length > limits.maxToolCallsPerStep) {
          this.#refuseCalls(
            response.toolCalls,
            `more than ${limits.maxToolCallsPerStep} tool calls in one response`,
          );
          throw new StopRun("tool-calls-per-step");
        }
        if (toolCalls + response.toolCalls.length > limits.maxToolCalls) {
          this.#refuseCalls(
            response.toolCalls,
            `the run's budget of ${limits.maxToolCalls} tool calls is used up`,
          );
          throw new StopRun("tool-budget");
        }

        for (const call of response.toolCalls) {
          toolCalls += 1;
          await this.#runToolCall(call, turns, controller.signal, emit);
          if (controller.signal.aborted) throw controller.signal.reason;
        }

        consecutiveToolSteps = response.text.trim() === "" ? consecutiveToolSteps + 1 : 0;
        if (consecutiveToolSteps >= limits.maxConsecutiveToolSteps)
          throw new StopRun("consecutive-tool-steps");
      }
    } catch (caught) {
      const reason = controller.signal.aborted ? controller.signal.reason : caught;
      if (reason instanceof StopRun) {
        stopReason = reason.reason;
      } else {
        stopReason = "error";
        error = toEventError(reason);
        emit({ type: "error", error });
      }
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onCallerAbort);
      this.#emit = undefined;
    }

    const durationMs = Math.round(performance.now() - startedAt);
    emit({ type: "finished", stopReason, text, turns, toolCalls, usage, durationMs });
    return { stopReason, text, turns, toolCalls, usage, durationMs, ...(error ? { error } : {}) };
  }

  async #requestModel(
    tools: LanguageModelV4FunctionTool[],
    signal: AbortSignal,
    onText: (delta: string) => void,
  ): Promise<ModelResponse> {
    const prompt = toModelPrompt(this.#conversation.forModel());
    let stream: ReadableStream<LanguageModelV4StreamPart>;
    try {
      ({ stream } = await this.#model.doStream({
        ...this.#callSettings,
        prompt,
        ...(tools.length > 0 ? { tools, toolChoice: { type: "auto" as const } } : {}),
        abortSignal: signal,
      }));
    } catch (error) {
      if (signal.aborted || isXzatomaError(error)) throw error;
      throw new ProviderError(`The model request failed: ${describeError(error)}`, {
        cause: error,
      });
    }

    let text = "";
    const toolCalls: ToolCall[] = [];
    let usage: Usage = EMPTY_USAGE;
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        switch (part.type) {
          case "text-delta":
            if (part.delta === "") break;
            text += part.delta;
            onText(part.delta);
            break;
          case "tool-call":
            toolCalls.push({
              id: part.toolCallId,
              name: part.toolName,
              input: parseToolInput(part.input),
            });
            break;
          case "finish":
            usage = toUsage(part.usage);
            break;
          case "error":
            throw isXzatomaError(part.error)
              ? part.error
              : new ProviderError(`The model stream failed: ${describeError(part.error)}`, {
                  cause: part.error,
                });
          default:
            break;
        }
      }
    } catch (error) {
      if (signal.aborted || isXzatomaError(error)) throw error;
      throw new ProviderError(`The model stream failed: ${describeError(error)}`, { cause: error });
    } finally {
      reader.releaseLock();
    }
    return { text, toolCalls, usage };
  }

  async #runToolCall(
    call: ToolCall,
    turn: number,
    signal: AbortSignal,
    emit: (event: AgentEvent) => void,
  ): Promise<void> {
    emit({
      type: "tool-call-requested",
      turn,
      toolCallId: call.id,
      toolName: call.name,
      input: call.input,
    });
    const startedAt = performance.now();
    const result = await this.#registry.execute(
      {
        toolCallId: call.id,
        toolName: call.name,
        input: typeof call.input === "string" ? call.input : JSON.stringify(call.input),
      },
      {
        signal,
        ...(this.#approve ? { approve: this.#approve } : {}),
        ...(this.#audit ? { audit: this.#audit } : {}),
        onApprovalRequested: (request) => emit({ type: "approval-requested", turn, ...request }),
        onApprovalAnswered: (request, decision) =>
          emit({
            type: "approval-answered",
            turn,
            toolCallId: request.toolCallId,
            toolName: request.toolName,
            ...decision,
          }),
        onProgress: (progress) =>
          emit({ type: "tool-progress", turn, toolCallId: call.id, message: progress.message }),
      },
    );
    const durationMs = Math.round(performance.now() - startedAt);
    emit({
      type: "tool-result",
      turn,
      toolCallId: call.id,
      toolName: call.name,
      result,
      durationMs,
    });
    this.#append(
      toolMessage({
        toolCallId: call.id,
        toolName: call.name,
        content: toolResultToModelText(result),
        isError: !result.success,
      }),
    );
  }

  /** Answers calls that will not run, so the conversation stays valid for a later run. */
  #refuseCalls(calls: readonly ToolCall[], reason: string): void {
    for (const call of calls) {
      this.#append(
        toolMessage({
          toolCallId: call.id,
          toolName: call.name,
          content: `Error: not executed: ${reason}.`,
          isError: true,
        }),
      );
    }
  }
}
