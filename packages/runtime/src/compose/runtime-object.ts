import type { RuntimeParts } from "./runtime-parts.js";
import type { AgentRuntime } from "./runtime-interface.js";
import type { RuntimeSession } from "./runtime-session.js";
import { clearConversation, resumeConversation } from "./conversation-switch.js";
import { runPrompt } from "./run-prompt.js";

/**
 * The runtime a front end holds: its parts, read through, and the session they change. Each
 * method is bound to this runtime, so a front end may pass `runtime.run` on as a function.
 */
export function createRuntimeObject(parts: RuntimeParts, session: RuntimeSession): AgentRuntime {
  const { provider, modes, workspace, hooks, events, mcp } = parts;
  return {
    provider,
    workspace,
    modes,
    config: parts.config,
    get model() {
      return session.model;
    },
    get conversationId() {
      return session.recorder?.conversationId;
    },
    get messages() {
      return session.agent.messages;
    },
    get agent() {
      return session.agent;
    },
    mcp,
    skills: parts.skills,
    customCommands: parts.content.commands?.offered ?? [],
    async fetchText(url, options) {
      const response = await parts.standard.fetcher.fetch(url, { confirmed: options.confirmed });
      return { url: response.url, contentType: response.contentType, body: response.body };
    },
    subscribe: (listener, options) => events.subscribe(listener, options),
    run: (prompt, options = {}) => runPrompt(parts, session, prompt, options),
    setMode(mode) {
      modes.chatMode = mode;
      session.rebuild();
    },
    setApprovalPolicy(policy) {
      modes.approvalPolicy = policy;
    },
    async setModel(name) {
      await provider.checkModel(name);
      session.model = name;
      session.window = await provider.resolveContextWindow(name);
      session.rebuild();
    },
    status: () => ({
      mode: modes.chatMode,
      approvalPolicy: modes.approvalPolicy,
      provider: provider.name,
      model: session.model,
      workspace: workspace.root,
      tools: session.agent.tools.names(),
      messages: session.agent.messages.length,
      usage: session.totals,
    }),
    toolCosts: () => parts.toolSearch.costs(),
    clear: () => clearConversation(parts, session),
    resume: (idOrPrefix) => resumeConversation(parts, session, idOrPrefix),
    async compact(options = {}) {
      await hooks.preCompact("manual", options.instructions);
      const signal = options.signal ? { signal: options.signal } : {};
      if (!options.everything) return session.agent.summarizeContext(signal);
      const focus = options.instructions?.trim();
      return (await session.agent.compactContext({ ...signal, ...(focus ? { focus } : {}) }))
        .summary;
    },
    async close() {
      await session.restarted;
      await hooks.end("other");
      await hooks.settle();
      parts.checkpoints.close();
      parts.history.close();
      await Promise.all([parts.standard.close(), mcp?.close()]);
    },
  };
}
