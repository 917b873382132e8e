import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4FunctionTool,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import {
  assistantMessage,
  toolMessage,
  userMessage,
  type Conversation,
  type ConversationUpdate,
  type Message,
  type ToolCall,
} from "@xzatoma/conversation";
import type { AgentEvent, AgentEventError } from "./agent-event.js";
import type { AgentLimits, StopReason } from "./agent-limits.js";
import { describeError, isXzatomaError, ProviderError, XzatomaError } from "./errors.js";
import { RepeatedCallDetector } from "./loop-detector.js";
import { toModelPrompt, toModelTools } from "./model-prompt.js";
import type { ApprovalHandler, ToolAuditSink, ToolRegistry } from "./tool-registry.js";
import type { QuotaExceeded } from "./quota-exceeded.js";
import { toolResultToModelText } from "./tool-result.js";
import { addUsage, EMPTY_USAGE, type Usage } from "./usage.js";

/** Call settings passed through to the model on every request. */
export type ModelCallSettings = Pick<
  LanguageModelV4CallOptions,
  "maxOutputTokens" | "temperature" | "topP" | "seed" | "providerOptions" | "headers"
>;

/** Options of one run. */
export interface AgentRunOptions {
  /** Cancels the run: the model request and any running tool are aborted. */
  readonly signal?: AbortSignal;
  /** Receives every event of the run, in order. */
  readonly onEvent?: (event: AgentEvent) => void;
  /** Keep the input verbatim through every prune (it carries a skill the person named). */
  readonly pinInput?: boolean;
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
  /** The tokens of the whole tree (a runtime whose run may delegate sets it). */
  readonly treeUsage?: Usage;
  /** Which budget of the tree was exceeded, when `stopReason` is `quota`. */
  readonly quota?: QuotaExceeded;
}

/** What a run uses of its agent: everything that outlives the run. */
export interface AgentRunHost {
  readonly model: LanguageModelV4;
  readonly registry: ToolRegistry;
  readonly limits: AgentLimits;
  readonly approve: ApprovalHandler | undefined;
  readonly audit: ToolAuditSink | undefined;
  readonly callSettings: ModelCallSettings;
  readonly conversation: Conversation;
}

interface ModelResponse {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  /** Ids of the calls whose input is not valid JSON (cut off, when the response was). */
  readonly malformed: ReadonlySet<string>;
  readonly finishReason: LanguageModelV4FinishReason["unified"] | undefined;
  readonly usage: Usage;
}

function toUsage(usage: LanguageModelV4Usage | undefined): Usage {
  const inputTokens = usage?.inputTokens.total ?? 0;
  const outputTokens = usage?.outputTokens.total ?? 0;
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

/** The call's input parsed from JSON; the text itself when it is not JSON (the registry reports that). */
function parseToolInput(input: string): { readonly value: unknown; readonly parsed: boolean } {
  try {
    return { value: input.trim() === "" ? {} : JSON.parse(input), parsed: true };
  } catch {
    return { value: input, parsed: false };
  }
}

function toEventError(error: unknown): AgentEventError {
  if (isXzatomaError(error)) {
    const fields = error.fields as Readonly<Record<string, unknown>>;
    return {
      code: error.code,
      message: error.message,
      ...(Object.keys(fields).length > 0 ? { fields } : {}),
    };
  }
  return { code: "PROVIDER_ERROR", message: describeError(error) };
}

/** The provider's way of saying the request no longer fits the model's context window. */
function isContextLengthExceeded(error: unknown): boolean {
  return isXzatomaError(error) && error.code === "CONTEXT_LENGTH_EXCEEDED";
}

/**
 * Ends a run with a stop reason other than `error`. A caller that aborts a run's signal with
 * one (`controller.abort(new RunStop("quota"))`) ends the run with that reason instead of
 * `aborted`: a budget shared by several runs stops the one that crossed it.
 */
export class RunStop extends Error {
  constructor(readonly reason: StopReason) {
    super(reason);
    this.name = "RunStop";
  }
}

const CUT_OFF =
  "the response was cut off at the output limit before the arguments of this call were complete; make the call again with shorter arguments (write a large file in parts)";

/**
 * One run of an {@link Agent}: the loop and everything that lives only as long as it
 * (counters, the abort controller and timer, the event sink, the calls made so far). The
 * conversation belongs to the agent and outlives the run.
 */
export class AgentRun {
  readonly #host: AgentRunHost;
  readonly #options: AgentRunOptions;
  readonly #controller = new AbortController();
  readonly #repeats: RepeatedCallDetector;
  #turn = 0;
  #toolCalls = 0;
  #usage: Usage = EMPTY_USAGE;
  #text = "";

  constructor(host: AgentRunHost, options: AgentRunOptions = {}) {
    this.#host = host;
    this.#options = options;
    this.#repeats = new RepeatedCallDetector(host.limits.maxRepeatedToolCalls);
  }

  #emit(event: AgentEvent): void {
    this.#options.onEvent?.(event);
  }

  /** Runs the loop on `input` and resolves with how the run ended. Never rejects for model or tool failures. */
  async execute(input: string): Promise<AgentResult> {
    const startedAt = performance.now();
    const { limits, registry } = this.#host;
    const signal = this.#options.signal;
    const controller = this.#controller;
    const onCallerAbort = () =>
      controller.abort(signal?.reason instanceof RunStop ? signal.reason : new RunStop("aborted"));
    signal?.addEventListener("abort", onCallerAbort, { once: true });
    if (signal?.aborted) onCallerAbort();
    const timer = setTimeout(() => controller.abort(new RunStop("timeout")), limits.timeoutMs);

    let stopReason: StopReason;
    let error: AgentEventError | undefined;
    this.#emit({ type: "run-started", input, tools: registry.names() });
    this.#append(userMessage(input), this.#options.pinInput === true);
    try {
      // Read again for every request: a tool search may have loaded more tools.
      stopReason = await this.#loop(() => toModelTools(registry.specifications()));
    } catch (caught) {
      const reason = controller.signal.aborted ? controller.signal.reason : caught;
      if (reason instanceof RunStop) {
        stopReason = reason.reason;
      } else if (isContextLengthExceeded(reason)) {
        stopReason = "length";
      } else {
        stopReason = "error";
        error = toEventError(reason);
        this.#emit({ type: "error", error });
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onCallerAbort);
    }

    const durationMs = Math.round(performance.now() - startedAt);
    const result: AgentResult = {
      stopReason,
      text: this.#text,
      turns: this.#turn,
      toolCalls: this.#toolCalls,
      usage: this.#usage,
      durationMs,
      ...(error ? { error } : {}),
    };
    this.#emit({
      type: "finished",
      stopReason,
      text: result.text,
      turns: result.turns,
      toolCalls: result.toolCalls,
      usage: result.usage,
      durationMs,
    });
    return result;
  }

  /**
   * A request larger than the model's window (the conversation's budget plus the room kept
   * for the answer) is never sent: a server such as Ollama would cut its start, the system
   * prompt and the task, without saying so. The run ends with the `length` stop reason.
   */
  #checkFits(tokens: number): void {
    const { conversation, callSettings } = this.#host;
    const window = conversation.status().maxTokens + (callSettings.maxOutputTokens ?? 0);
    if (tokens <= window) return;
    throw new XzatomaError(
      "CONTEXT_LENGTH_EXCEEDED",
      `The next request needs about ${tokens} tokens, more than the model's context window of ${window} holds, even with older messages pruned.`,
      { fields: { tokens, contextWindow: window } },
    );
  }

  async #loop(tools: () => LanguageModelV4FunctionTool[]): Promise<StopReason> {
    const { limits, conversation } = this.#host;
    const signal = this.#controller.signal;
    for (;;) {
      if (signal.aborted) throw signal.reason;
      if (this.#turn >= limits.maxTurns) return "max-turns";
      this.#turn += 1;
      const turn = this.#turn;
      this.#emit({ type: "turn-started", turn });

      const estimatedSent = conversation.status().tokens;
      this.#checkFits(estimatedSent);
      const response = await this.#respond(tools());
      this.#usage = addUsage(this.#usage, response.usage);
      this.#emit({ type: "usage", turn, usage: response.usage, totals: this.#usage });
      // Reported input tokens are the truth for what was sent, unless they are far below the
      // estimate: servers that reuse a cached prompt prefix (Ollama) count only the new part,
      // and trusting that would let the context overflow.
      if (response.usage.inputTokens >= estimatedSent / 2) {
        this.#report(conversation.recordUsage({ inputTokens: response.usage.inputTokens }));
      }
      this.#append(assistantMessage(response.text, response.toolCalls));
      if (response.text !== "") this.#text = response.text;
      // An observer that counts these tokens against a budget shared with other runs (the
      // tree's quota) may stop this run on its usage event: a response that crossed the
      // budget, a final answer included, ends the run with the observer's reason.
      if (signal.aborted) {
        this.#refuseCalls(response.toolCalls, "the run was stopped");
        throw signal.reason;
      }

      const cutOff = response.finishReason === "length";
      if (response.toolCalls.length === 0) {
        if (cutOff) return "length";
        if (response.text.trim() === "") {
          throw new XzatomaError(
            "EMPTY_RESPONSE",
            "The model returned neither text nor tool calls.",
          );
        }
        return "completed";
      }

      // After a cut-off, a call whose input is not JSON was cut off too: it never runs. The
      // run goes on when the response holds complete calls, so the model can retry the rest.
      const truncated = (call: ToolCall) => cutOff && response.malformed.has(call.id);
      const complete = response.toolCalls.filter((call) => !truncated(call));
      if (complete.length === 0) {
        this.#refuseCalls(response.toolCalls, CUT_OFF);
        return "length";
      }
      if (complete.length > limits.maxToolCallsPerStep) {
        this.#refuseCalls(
          response.toolCalls,
          `more than ${limits.maxToolCallsPerStep} tool calls in one response`,
        );
        return "tool-calls-per-step";
      }
      if (this.#toolCalls + complete.length > limits.maxToolCalls) {
        this.#refuseCalls(
          response.toolCalls,
          `the run's budget of ${limits.maxToolCalls} tool calls is used up`,
        );
        return "tool-budget";
      }
      const repeated = this.#repeats.find(complete);
      if (repeated) {
        const what =
          repeated.period === 1
            ? `'${repeated.toolName}' was already called with the same arguments ${repeated.times} times in a row`
            : `the same ${repeated.period} calls were already made ${repeated.times} times in a row`;
        this.#refuseCalls(response.toolCalls, `${what}, so the run stops here`);
        return "repeated-tool-calls";
      }

      this.#repeats.record(complete);
      for (const call of response.toolCalls) {
        if (truncated(call)) {
          this.#refuseCalls([call], CUT_OFF);
          continue;
        }
        this.#toolCalls += 1;
        await this.#runToolCall(call, turn);
        if (signal.aborted) throw signal.reason;
      }
    }
  }

  /**
   * Requests a response. When the conversation no longer fits the model's window and the
   * model already streamed part of its answer, that part is kept as the run's text and
   * in the conversation, as the user saw it.
   */
  async #respond(tools: LanguageModelV4FunctionTool[]): Promise<ModelResponse> {
    const partial = { text: "" };
    try {
      return await this.#requestModel(tools, partial);
    } catch (error) {
      if (!this.#controller.signal.aborted && isContextLengthExceeded(error) && partial.text) {
        this.#append(assistantMessage(partial.text, []));
        this.#text = partial.text;
      }
      throw error;
    }
  }

  async #requestModel(
    tools: LanguageModelV4FunctionTool[],
    partial: { text: string },
  ): Promise<ModelResponse> {
    const { model, callSettings, conversation } = this.#host;
    const signal = this.#controller.signal;
    const turn = this.#turn;
    const prompt = toModelPrompt(conversation.forModel());
    let stream: ReadableStream<LanguageModelV4StreamPart>;
    try {
      ({ stream } = await model.doStream({
        ...callSettings,
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

    const toolCalls: ToolCall[] = [];
    const malformed = new Set<string>();
    let usage: Usage = EMPTY_USAGE;
    let finishReason: ModelResponse["finishReason"];
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        switch (part.type) {
          case "text-delta":
            if (part.delta === "") break;
            partial.text += part.delta;
            this.#emit({ type: "text-delta", turn, delta: part.delta });
            break;
          case "tool-call": {
            const input = parseToolInput(part.input);
            if (!input.parsed) malformed.add(part.toolCallId);
            toolCalls.push({ id: part.toolCallId, name: part.toolName, input: input.value });
            break;
          }
          case "finish":
            usage = toUsage(part.usage);
            finishReason = part.finishReason.unified;
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
    return { text: partial.text, toolCalls, malformed, finishReason, usage };
  }

  async #runToolCall(call: ToolCall, turn: number): Promise<void> {
    const { registry, approve, audit } = this.#host;
    this.#emit({
      type: "tool-call-requested",
      turn,
      toolCallId: call.id,
      toolName: call.name,
      input: call.input,
    });
    const startedAt = performance.now();
    const result = await registry.execute(
      // Parsed once, when the response was read; text that is not JSON goes as it came, for
      // the registry to report.
      typeof call.input === "string"
        ? { toolCallId: call.id, toolName: call.name, input: call.input }
        : { toolCallId: call.id, toolName: call.name, parsedInput: call.input },
      {
        signal: this.#controller.signal,
        ...(approve ? { approve } : {}),
        ...(audit ? { audit } : {}),
        onApprovalRequested: (request) =>
          this.#emit({ type: "approval-requested", turn, ...request }),
        onApprovalAnswered: (request, decision) =>
          this.#emit({
            type: "approval-answered",
            turn,
            toolCallId: request.toolCallId,
            toolName: request.toolName,
            ...decision,
          }),
        onProgress: (progress) =>
          this.#emit({
            type: "tool-progress",
            turn,
            toolCallId: call.id,
            message: progress.message,
          }),
      },
    );
    const durationMs = Math.round(performance.now() - startedAt);
    this.#emit({
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

  /** Appends a message and reports pruning and context-level changes as events. */
  #append(message: Message, pinned = false): void {
    this.#report(this.#host.conversation.append(message, pinned ? { pinned } : undefined));
  }

  #report(update: ConversationUpdate): void {
    const turn = this.#turn;
    if (update.pruned) {
      this.#emit({
        type: "context-pruned",
        turn,
        dropped: update.pruned.dropped.length,
        toolCalls: update.pruned.toolCalls,
        tokensBefore: update.pruned.tokensBefore,
        tokensAfter: update.pruned.tokensAfter,
      });
    }
    if (update.status) {
      this.#emit({
        type: "context-status",
        turn,
        previous: update.status.previous,
        level: update.status.level,
        tokens: update.status.status.tokens,
        maxTokens: update.status.status.maxTokens,
      });
    }
  }
}
