import type { LanguageModelV4 } from "@ai-sdk/provider";
import {
  Agent,
  type AgentLimits,
  type ApprovalDecision,
  type ApprovalRequest,
  type Tool,
  type ToolAuditSink,
} from "@xzatoma/core";
import { type ConversationOptions, type Message } from "@xzatoma/conversation";
import { isToolAvailable } from "@xzatoma/safety";
import type { ChatEngine, ChatState } from "../chat/chat-engine.js";
import type { TurnRecorder } from "../history/history-recorder.js";
import { createApprovalHandler } from "./approval-handler.js";
import type { SessionModes } from "@xzatoma/runtime";

/** Loads @mentions of a message into its prompt. */
export interface MentionExpander {
  load(text: string): Promise<{
    prompt: string;
    loaded: readonly { label: string; detail: string }[];
    failed: readonly { label: string; reason: string; suggestion: string }[];
  }>;
}

/** Options of {@link createAgentSession}. */
export interface AgentSessionOptions {
  readonly provider: string;
  readonly model: string;
  readonly createModel: (model: string) => LanguageModelV4;
  readonly listModels: () => Promise<string>;
  /** Context window of the current model, for `/context`. */
  readonly contextWindow: (model: string) => number;
  /** Every tool; the chat mode decides which are registered. */
  readonly tools: readonly Tool[];
  readonly modes: SessionModes;
  readonly systemPrompt: string;
  readonly limits?: Partial<AgentLimits>;
  /** Context management for a model: its window, pruning threshold, turns kept. */
  readonly context?: (model: string) => ConversationOptions;
  readonly audit?: ToolAuditSink;
  readonly mentions?: MentionExpander;
  readonly recorder?: TurnRecorder;
  readonly history?: readonly Message[];
  readonly workspace: string;
}

/**
 * A chat session: one conversation that survives mode, safety and model switches. A mode
 * switch rebuilds the agent with the tools of the new mode and the same conversation,
 * custom tool packages included.
 */
export function createAgentSession(
  options: AgentSessionOptions,
): ChatEngine & { readonly messages: readonly Message[] } {
  const modes = options.modes;
  let model = options.model;
  let confirm: ((request: ApprovalRequest) => Promise<ApprovalDecision>) | undefined;
  let totals = { inputTokens: 0, outputTokens: 0 };
  let runUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const totals0 = () => runUsage;
  const approve = createApprovalHandler(modes, (request) =>
    confirm
      ? confirm(request)
      : Promise.resolve({ approved: false, reason: "no one is available to confirm it" }),
  );

  const build = (history: readonly Message[]) =>
    new Agent({
      model: options.createModel(model),
      tools: options.tools.filter((tool) => isToolAvailable(modes.chatMode, tool.access)),
      systemPrompt: options.systemPrompt,
      approve,
      ...(options.context ? { context: options.context(model) } : {}),
      history,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.audit ? { audit: options.audit } : {}),
    });
  let agent = build(options.history ?? []);

  const state = (): ChatState => ({
    mode: modes.chatMode,
    safety: modes.safetyMode,
    provider: options.provider,
    model,
  });

  return {
    get messages() {
      return agent.messages;
    },
    state,
    async send(text, run) {
      let prompt = text;
      if (options.mentions) {
        const expanded = await options.mentions.load(text);
        prompt = expanded.prompt;
        if (expanded.loaded.length > 0) {
          const labels = expanded.loaded.map((mention) => `${mention.label} (${mention.detail})`);
          run.onNotice(`Loaded ${expanded.loaded.length} mention(s): ${labels.join(", ")}`);
        }
        for (const failure of expanded.failed) {
          run.onNotice(`Could not load ${failure.label}: ${failure.reason}; ${failure.suggestion}`);
        }
      }
      const result = await agent.run(prompt, {
        signal: run.signal,
        onEvent: (event) => {
          // Each finished turn is written before the next request: a crash loses at most one turn.
          if (event.type === "turn-started" && event.turn > 1) {
            options.recorder?.progress(
              agent.conversation.entries(),
              totals0(),
              event.turn - 1,
              state(),
            );
          }
          if (event.type === "run-started")
            runUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
          if (event.type === "usage") {
            runUsage = event.totals;
            totals = {
              inputTokens: event.totals.inputTokens,
              outputTokens: event.totals.outputTokens,
            };
          }
          run.onEvent(event);
        },
      });
      options.recorder?.finish(agent.conversation.entries(), result, state());
      return result;
    },
    setMode(mode) {
      if (modes.chatMode === mode) return `Already in ${mode} mode.`;
      modes.chatMode = mode;
      agent = build(agent.messages);
      const count = agent.tools.names().length;
      return `Switched to ${mode} mode (${count} tools${mode === "planning" ? ", read-only" : ""}); the conversation is kept.`;
    },
    setSafety(safety) {
      modes.safetyMode = safety;
      return safety === "yolo"
        ? "YOLO mode: operations that would ask first now run without asking. Blocked operations stay blocked."
        : "Safe mode: dangerous operations ask first.";
    },
    async setModel(name) {
      options.createModel(name);
      model = name;
      agent = build(agent.messages);
      return `Switched to model ${name} (${options.contextWindow(name)} token context); the conversation is kept.`;
    },
    listModels: () => options.listModels(),
    status() {
      return [
        `mode: ${modes.chatMode}   safety: ${modes.safetyMode}   execution: ${modes.executionMode}`,
        `model: ${options.provider}: ${model}`,
        `workspace: ${options.workspace}`,
        `tools: ${agent.tools.names().join(", ")}`,
        `messages: ${agent.messages.length}   tokens used so far: ${totals.inputTokens} in, ${totals.outputTokens} out`,
      ].join("\n");
    },
    context() {
      const status = agent.conversation.status();
      const left = Math.max(0, status.maxTokens - status.tokens);
      const percent = Math.round(status.ratio * 100);
      const pruned =
        status.prunedMessages > 0 ? `; ${status.prunedMessages} older messages summarised` : "";
      return `Context: ${status.tokens} tokens used, ${left} left of ${status.maxTokens} (${percent}%, ${status.level}${status.reported ? "" : ", estimated"})${pruned}`;
    },
    async summarize(signal) {
      const summary = await agent.summarizeContext({ signal });
      return summary === undefined
        ? "Nothing to summarise yet: the whole conversation fits in the context."
        : `The model summarised the older part of the conversation:\n${summary}`;
    },
    clear() {
      totals = { inputTokens: 0, outputTokens: 0 };
      agent = build([]);
      options.recorder?.clear();
      return "Started a new conversation.";
    },
    setConfirm(next) {
      confirm = next;
    },
    async close() {
      // Nothing held open yet; persistence closes its database through the recorder's owner.
    },
  };
}
