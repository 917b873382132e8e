import {
  addUsage,
  EMPTY_USAGE,
  RunStop,
  type AgentEvent,
  type AgentResult,
  type AgentRunOptions,
  type RunTelemetry,
} from "@xzatoma/core";
import { redactSecrets } from "@xzatoma/redaction";
import { runUntilStopHooksAgree, withPromptContext } from "../hooks/session-hooks.js";
import { connectUnlessAborted } from "../mcp/connect-unless-aborted.js";
import type { Quota } from "../subagents/quota.js";
import { expandPrompt } from "./prompt-expansion.js";
import type { RuntimeParts } from "./runtime-parts.js";
import type { RuntimeRunOptions } from "./runtime-interface.js";
import type { RuntimeSession } from "./runtime-session.js";

/**
 * One top-level run of a runtime: the MCP servers connected and the window fitted first,
 * then a fresh quota for the run's tree and its telemetry, the prompt through the hooks and
 * the expansion of commands and skills, the agent until the `Stop` hooks agree, and the
 * children awaited before the run is reported over. Every event goes to the telemetry, the
 * history recorder and the subscribers, in that order.
 */
export async function runPrompt(
  parts: RuntimeParts,
  session: RuntimeSession,
  prompt: string,
  options: RuntimeRunOptions,
): Promise<AgentResult> {
  await prepareAgent(parts, session, options.signal);
  const telemetry = runTelemetry(parts, session.model);
  const quota = parts.run.begin(telemetry);
  const controller = new AbortController();
  const outer = options.signal;
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener("abort", onOuterAbort, { once: true });
  // The tree's quota binds a run that may delegate, its top-level agent included: once any
  // agent of the tree exceeds a budget (or the tree's time is up) the whole run stops.
  const onQuota = () => controller.abort(new RunStop("quota"));
  if (parts.subagents) quota.signal.addEventListener("abort", onQuota, { once: true });
  parts.run.emit = (event) => {
    telemetry?.onEvent(event);
    session.recorder?.onEvent(event);
    parts.events.emit(event);
  };
  // The deprecated per-run listener: a subscription for this run, after the others.
  const runListener = options.onEvent;
  const endRunListener = runListener
    ? parts.events.subscribe((event) => runListener(event))
    : undefined;
  try {
    return await runAgent(parts, session, prompt, controller.signal, quota);
  } finally {
    quota.signal.removeEventListener("abort", onQuota);
    quota.close();
    outer?.removeEventListener("abort", onOuterAbort);
    parts.run.end();
    endRunListener?.();
    parts.checkpoints.endRun();
  }
}

/**
 * Brings the agent up to date before a run: the MCP servers not tried yet are connected
 * (unless the run is cancelled first) and their tools added, and the conversation is planned
 * for the window the provider now reports.
 */
async function prepareAgent(
  parts: RuntimeParts,
  session: RuntimeSession,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { mcp } = parts;
  if (mcp?.enabled) {
    const connected = await connectUnlessAborted(mcp, signal);
    if (connected && connected.length !== session.mcpTools.length) {
      session.mcpTools = connected;
      session.rebuild();
    }
  }
  const window = await parts.provider.resolveContextWindow(session.model);
  if (window === session.window) return;
  session.window = window;
  session.rebuild();
}

/** The run's spans and metrics, when the runtime was given a tracer and a meter. */
function runTelemetry(parts: RuntimeParts, model: string): RunTelemetry | undefined {
  const { telemetry } = parts.options;
  if (!telemetry) return undefined;
  return telemetry.createRunTelemetry({
    ...telemetry,
    provider: parts.provider.name,
    model,
    redact: (text) => redactSecrets(text),
  });
}

/** The run itself, from the `UserPromptSubmit` hooks to the tree's finished event. */
async function runAgent(
  parts: RuntimeParts,
  session: RuntimeSession,
  prompt: string,
  signal: AbortSignal,
  quota: Quota,
): Promise<AgentResult> {
  const { hooks, run } = parts;
  if (session.restarted) {
    await session.restarted;
    session.restarted = undefined;
    session.rebuild();
  }
  // `UserPromptSubmit` hooks see the prompt as typed: they may refuse it or add context.
  const submitted = await hooks.promptSubmitted(prompt);
  if (submitted.blocked !== undefined) return refused(submitted.blocked);
  const expanded = expandPrompt(prompt, {
    commands: parts.content.commands,
    skills: parts.skills,
    model: session.model,
    warn: (message) => parts.io.warn(message),
  });
  // Held until the children have ended, to carry the whole tree's tokens.
  let finished: Extract<AgentEvent, { type: "finished" }> | undefined;
  const agentOptions: AgentRunOptions = {
    signal,
    // A skill the person named stays in the model's view, as the instructions do.
    pinInput: expanded.pinInput,
    onEvent: (event) => {
      if (event.type === "finished" && parts.subagents) finished = event;
      else onAgentEvent(parts, quota, event);
    },
  };
  // `Stop` hooks may send the agent on, with their reason as the next message.
  const result = await runUntilStopHooksAgree(
    hooks,
    withPromptContext(expanded.text, "UserPromptSubmit", submitted.context),
    (input) => session.agent.run(input, agentOptions),
  );
  await hooks.settle();
  await run.settleChildren();
  const exceeded = result.stopReason === "quota" ? quota.exceeded : undefined;
  const tree = parts.subagents
    ? { treeUsage: quota.usage, ...(exceeded ? { quota: exceeded } : {}) }
    : {};
  if (finished) run.emit({ ...finished, ...tree });
  session.totals = addUsage(session.totals, result.usage);
  session.pinnedMessages = session.agent.pinnedMessages;
  return { ...result, ...tree };
}

/** What the top-level agent's events do besides going out: hooks, checkpoints, the tree's quota. */
function onAgentEvent(parts: RuntimeParts, quota: Quota, event: AgentEvent): void {
  if (event.type === "context-pruned") void parts.hooks.preCompact("auto");
  if (event.type === "turn-started") {
    parts.run.turn = event.turn;
    parts.checkpoints.startTurn();
  }
  // A run without the delegation tools has the agent's own limits alone.
  if (parts.subagents && event.type === "usage") quota.spend(event.usage);
  if (parts.subagents && event.type === "tool-call-requested") quota.call();
  parts.run.emit(event);
}

/** The result of a run a `UserPromptSubmit` hook refused: nothing was sent to the model. */
function refused(reason: string): AgentResult {
  return {
    stopReason: "error",
    text: "",
    turns: 0,
    toolCalls: 0,
    usage: EMPTY_USAGE,
    durationMs: 0,
    error: {
      code: "INVALID_ARGUMENT",
      message: `A UserPromptSubmit hook refused the prompt: ${reason}`,
    },
  };
}
