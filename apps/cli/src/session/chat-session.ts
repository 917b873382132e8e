import { isXzatomaError } from "@xzatoma/core";
import type { AgentRuntime } from "@xzatoma/runtime";
import type { ChatEngine, ChatState } from "../chat/chat-engine.js";
import { compactConversation, describeToolCosts } from "../chat/compact-command.js";
import { describeMcpServers } from "../chat/mcp-view.js";
import { describeSkills } from "../chat/skills-view.js";
import { proposedChange, type ApprovalRequestWithChange } from "./proposed-change.js";

/** Loads @mentions of a message into its prompt. */
export interface MentionExpander {
  load(text: string): Promise<{
    prompt: string;
    loaded: readonly { label: string; detail: string }[];
    failed: readonly { label: string; reason: string; suggestion: string }[];
  }>;
}

/**
 * The chat REPL's view of a runtime: the runtime owns the agent, tools, modes and history;
 * this adds mentions and words each answer for the terminal.
 */
export function createChatSession(
  runtime: AgentRuntime,
  mentions: MentionExpander | undefined,
  installConfirm: ChatEngine["setConfirm"],
): ChatEngine {
  const state = (): ChatState => {
    const status = runtime.status();
    return {
      mode: status.mode,
      approvalPolicy: status.approvalPolicy,
      provider: status.provider,
      model: status.model,
    };
  };
  return {
    state,
    async send(text, run) {
      let prompt = text;
      if (mentions) {
        const expanded = await mentions.load(text);
        prompt = expanded.prompt;
        if (expanded.loaded.length > 0) {
          const labels = expanded.loaded.map((mention) => `${mention.label} (${mention.detail})`);
          run.onNotice(`Loaded ${expanded.loaded.length} mention(s): ${labels.join(", ")}.`);
        }
        for (const failure of expanded.failed) {
          run.onNotice(
            `Could not load ${failure.label}: ${failure.reason}; ${failure.suggestion}.`,
          );
        }
      }
      const unsubscribe = runtime.subscribe(run.onEvent);
      try {
        return await runtime.run(prompt, { signal: run.signal });
      } finally {
        unsubscribe();
      }
    },
    setMode(mode) {
      if (runtime.modes.chatMode === mode) return `Already in ${mode} mode.`;
      runtime.setMode(mode);
      const count = runtime.status().tools.length;
      return `Switched to ${mode} mode (${count} tools${mode === "planning" ? ", read-only" : ""}); the conversation is kept.`;
    },
    setApprovalPolicy(policy) {
      if (policy !== undefined) runtime.setApprovalPolicy(policy);
      const current = runtime.modes.approvalPolicy;
      const what = {
        untrusted:
          "you are asked before every command that is not provably read-only and every file change",
        "on-escalation":
          "commands run in the sandbox without asking; you are asked only when a call needs what the sandbox withholds (network, places outside the workspace, secrets, protected paths, .git writes)",
        never:
          "nobody is asked: a call that needs a person is refused, with the reason, and the model must do without it",
      }[current];
      return `Approval policy ${current}: ${what}.`;
    },
    async setModel(name) {
      try {
        await runtime.setModel(name);
      } catch (error) {
        if (isXzatomaError(error) && error.code === "MODEL_NOT_FOUND")
          return `${error.message} The model stays ${runtime.model}; /models lists the available ones.`;
        throw error;
      }
      return `Switched to model ${name} (${runtime.provider.contextWindow(name)} token context); the conversation is kept.`;
    },
    async listModels() {
      const models = await runtime.provider.listModels();
      if (models.length === 0) return `${runtime.provider.name} lists no models.`;
      return models
        .map(
          (model) => `${model.id}${model.contextWindow ? ` (${model.contextWindow} tokens)` : ""}`,
        )
        .join("\n");
    },
    status() {
      const status = runtime.status();
      return [
        `mode: ${status.mode}   approvals: ${status.approvalPolicy}`,
        `model: ${status.provider}: ${status.model}`,
        `workspace: ${status.workspace}`,
        `tools: ${status.tools.join(", ")}`,
        `messages: ${status.messages}   tokens in this conversation: ${status.usage.inputTokens} in, ${status.usage.outputTokens} out`,
      ].join("\n");
    },
    mcp: () => describeMcpServers(runtime.mcp?.servers()),
    skills: () => describeSkills(runtime.skills, runtime.customCommands),
    // A skill the session offers runs as a command too: `/skill-name args` loads it.
    isCustomCommand: (name) =>
      runtime.customCommands.some((command) => command.name === name) ||
      runtime.skills.some((skill) => skill.name === name),
    context() {
      const status = runtime.agent.conversation.status();
      const left = Math.max(0, status.maxTokens - status.tokens);
      const percent = Math.round(status.ratio * 100);
      const pruned =
        status.prunedMessages > 0 ? `; ${status.prunedMessages} older messages summarised` : "";
      return [
        `Context: ${status.tokens} tokens used, ${left} left of ${status.maxTokens} (${percent}%, ${status.level}${status.reported ? "" : ", estimated"})${pruned}`,
        ...describeToolCosts(runtime.toolCosts()),
      ].join("\n");
    },
    async summarize(signal) {
      const summary = await runtime.agent.summarizeContext({ signal });
      return summary === undefined
        ? "Nothing to summarise yet: the whole conversation fits in the context."
        : `The model summarised the older part of the conversation:\n${summary}`;
    },
    compact: (focus, signal) => compactConversation(runtime, focus, signal),
    clear() {
      runtime.clear();
      return "Started a new conversation.";
    },
    // Each question carries what an overwrite or edit would change, read just before it is
    // asked, so the person approves a diff rather than the new content.
    setConfirm(confirm) {
      const guard = runtime.workspace.pathGuard;
      const reader = { root: guard.root, resolve: (input: string) => guard.resolve(input) };
      installConfirm(async (request) => {
        const change = await proposedChange(request, reader);
        if (change === undefined) return confirm(request);
        const asked: ApprovalRequestWithChange = { ...request, change };
        return confirm(asked);
      });
    },
    close: () => runtime.close(),
  };
}
