import type { LanguageModelV4 } from "@ai-sdk/provider";
import {
  createConversation,
  systemMessage,
  userMessage,
  type Conversation,
  type ConversationOptions,
  type Message,
} from "@xzatoma/conversation";
import type { AgentEvent } from "./agent-event.js";
import { DEFAULT_MAX_OUTPUT_TOKENS, resolveAgentLimits, type AgentLimits } from "./agent-limits.js";
import {
  AgentRun,
  type AgentResult,
  type AgentRunHost,
  type AgentRunOptions,
  type ModelCallSettings,
} from "./agent-run.js";
import { describeError, InvalidArgumentError, ProviderError } from "./errors.js";
import { toModelPrompt } from "./model-prompt.js";
import {
  createToolRegistry,
  type ApprovalHandler,
  type ToolAuditSink,
  type ToolRegistry,
} from "./tool-registry.js";
import type { Tool } from "./tool.js";

export type { AgentResult, AgentRunOptions, ModelCallSettings } from "./agent-run.js";

/** The most of the pruned messages' text a summary request carries (the latest part). */
const SUMMARY_INPUT_CHARS = 200_000;

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
   * Messages of `history` kept verbatim through every prune, as they were in the agent
   * they come from (its `pinnedMessages`): a rebuilt agent keeps what the old one kept.
   */
  readonly pinnedHistory?: ReadonlySet<Message>;
  /**
   * Context management: the model's window (`maxTokens`), pruning threshold, turns kept,
   * warning and critical levels, tokenizer. Default: no pruning (a window of 1M tokens).
   */
  readonly context?: ConversationOptions;
  /** Messages kept in context whatever pruning decides (an active plan, project instructions). */
  readonly pinned?: readonly string[];
  /**
   * Passed to the model on every request. `maxOutputTokens` defaults to
   * {@link DEFAULT_MAX_OUTPUT_TOKENS}; a response that reaches it ends the run with `length`.
   */
  readonly callSettings?: ModelCallSettings;
}

/** The call settings with the default output cap; rejects a cap that is not a positive integer. */
function resolveCallSettings(settings: ModelCallSettings = {}): ModelCallSettings {
  const maxOutputTokens = settings.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  if (!Number.isInteger(maxOutputTokens) || maxOutputTokens < 1) {
    throw new InvalidArgumentError(
      `callSettings.maxOutputTokens must be a positive integer, got ${String(maxOutputTokens)}.`,
    );
  }
  return { ...settings, maxOutputTokens };
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
  /** The run in progress: an agent runs one at a time, since runs share the conversation. */
  #activeRun: AgentRun | undefined;

  constructor(options: AgentOptions) {
    this.#model = options.model;
    this.#limits = resolveAgentLimits(options.limits);
    this.#approve = options.approve;
    this.#audit = options.audit;
    this.#callSettings = resolveCallSettings(options.callSettings);
    this.#conversation = createConversation(
      options.context ?? { maxTokens: 1_000_000, pruneThreshold: false },
    );
    if (options.systemPrompt)
      this.#conversation.append(systemMessage(options.systemPrompt), { pinned: true });
    for (const text of options.pinned ?? [])
      this.#conversation.append(systemMessage(text), { pinned: true });
    for (const message of options.history ?? []) {
      if (message.role === "system") continue;
      const pinned = options.pinnedHistory?.has(message) === true;
      this.#conversation.append(message, pinned ? { pinned } : undefined);
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

  /** The messages of `messages` kept verbatim by request (a run's `pinInput`), for `pinnedHistory`. */
  get pinnedMessages(): ReadonlySet<Message> {
    return new Set(
      this.#conversation
        .entries()
        .filter((entry) => entry.pinned && entry.message.role !== "system")
        .map((entry) => entry.message),
    );
  }

  /** The managed conversation: what the model sees, token status, pruning, summary. */
  get conversation(): Conversation {
    return this.#conversation;
  }

  /**
   * Replaces the deterministic summary of pruned messages by one the model writes
   * (`/context summary`). Prunes first when nothing was pruned yet. Resolves with the
   * summary now in force, or undefined when there is nothing to summarise. The summary is
   * checked for the files changed, the person's requests and the open steps; what it left
   * out is added from the record (see `Conversation.replaceSummary`). `focus` tells the
   * model what to keep in most detail.
   */
  async summarizeContext(
    options: { signal?: AbortSignal; focus?: string } = {},
  ): Promise<string | undefined> {
    if (this.#conversation.summary() === undefined) this.#conversation.prune();
    const current = this.#conversation.summary();
    if (current === undefined) return undefined;
    const dropped = this.#conversation
      .entries()
      .filter((entry) => entry.pruned && !entry.summary)
      .map((entry) => `${entry.message.role}: ${entry.message.content.slice(0, 2000)}`)
      .join("\n")
      .slice(-SUMMARY_INPUT_CHARS);
    const focus = options.focus?.trim();
    const { stream } = await this.#model.doStream({
      ...this.#callSettings,
      prompt: toModelPrompt([
        systemMessage(
          "Summarise the conversation below for the assistant that continues it: goals, decisions, files changed (with their paths), results, steps still open, open questions. Be brief and factual." +
            (focus ? ` Keep most detail about: ${focus}` : ""),
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

  /**
   * Compacts the conversation now (`/compact`): everything before the last turn that may go
   * is pruned, and the model summarises it (with `focus`). The instructions, pinned
   * messages, the first request (the goal), the latest request, an activated skill and a
   * plan's latest progress stay verbatim. Resolves with how many messages were pruned and
   * the summary in force (undefined when there was nothing to compact).
   */
  async compactContext(
    options: { signal?: AbortSignal; focus?: string } = {},
  ): Promise<{ readonly pruned: number; readonly summary: string | undefined }> {
    const update = this.#conversation.compact();
    const pruned = update.pruned?.dropped.length ?? 0;
    if (this.#conversation.summary() === undefined) return { pruned, summary: undefined };
    return { pruned, summary: await this.summarizeContext(options) };
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
    if (this.#activeRun)
      throw new InvalidArgumentError(
        "This agent is already running; wait for the current run to finish.",
      );
    if (input.trim() === "")
      throw new InvalidArgumentError("The input is empty: give the agent something to do.");
    const run = new AgentRun(this.#runHost(), options);
    this.#activeRun = run;
    try {
      return await run.execute(input);
    } finally {
      this.#activeRun = undefined;
    }
  }

  /** What a run borrows from this agent. */
  #runHost(): AgentRunHost {
    return {
      model: this.#model,
      registry: this.#registry,
      limits: this.#limits,
      approve: this.#approve,
      audit: this.#audit,
      callSettings: this.#callSettings,
      conversation: this.#conversation,
    };
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
}
