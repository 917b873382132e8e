import type {
  Attributes,
  Context,
  Meter,
  Span,
  SpanKind,
  SpanStatusCode,
  Tracer,
} from "@opentelemetry/api";
import type {
  AgentEvent,
  RunTelemetry,
  RunTelemetryOptions,
  SubagentErrorType,
  SubagentFinishedEvent,
  SubagentRefusedEvent,
  SubagentStartedEvent,
  SubagentTelemetryInfo,
  TelemetryEvent,
  ToolResult,
  Usage,
} from "@xzatoma/core";
import { instrumentsOf, type Instruments } from "./instruments.js";

export type {
  RunTelemetry,
  RunTelemetryOptions,
  RunTelemetrySource,
  SubagentErrorType,
  SubagentFinishedEvent,
  SubagentRefusedEvent,
  SubagentStartedEvent,
  SubagentTelemetryInfo,
  TelemetryEvent,
} from "@xzatoma/core";

/** The `error_type` of a child that ran and stopped with `stopReason` (not `completed`). */
export function subagentErrorType(stopReason: string): SubagentErrorType {
  return stopReason === "quota" ? "quota_exceeded" : "execution_failed";
}

// The values below are the API's (its enums and its span key, `Symbol.for` so that every
// copy of the API shares it), so that loading @xzatoma/otel loads no OpenTelemetry module:
// the API costs a process some 15 ms to load, and only apps that turn telemetry on pay it.
const KIND_INTERNAL = 0 as SpanKind;
const KIND_CLIENT = 2 as SpanKind;
const STATUS_ERROR = 2 as SpanStatusCode;
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");

/** An immutable context, as the API's: the parent of a run that is given none. */
class RootContext implements Context {
  readonly #values: ReadonlyMap<symbol, unknown>;

  constructor(values: ReadonlyMap<symbol, unknown> = new Map()) {
    this.#values = values;
  }

  getValue(key: symbol): unknown {
    return this.#values.get(key);
  }

  setValue(key: symbol, value: unknown): Context {
    return new RootContext(new Map(this.#values).set(key, value));
  }

  deleteValue(key: symbol): Context {
    const values = new Map(this.#values);
    values.delete(key);
    return new RootContext(values);
  }
}

const ROOT_CONTEXT: Context = new RootContext();

/** `context` with `span` as its span (the API's `trace.setSpan`). */
function withSpan(context: Context, span: Span): Context {
  return context.setValue(SPAN_KEY, span);
}

/** `gen_ai.*` and `xzatoma.*` attribute keys. */
const A = {
  operation: "gen_ai.operation.name",
  provider: "gen_ai.provider.name",
  system: "gen_ai.system",
  model: "gen_ai.request.model",
  agentName: "gen_ai.agent.name",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  tokenType: "gen_ai.token.type",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  errorType: "error.type",
} as const;

/** A tool call's span, and what the events said about it so far. */
interface ToolCallState {
  readonly span: Span;
  readonly context: Context;
  readonly toolName: string;
  verdict?: "approved" | "denied";
}

interface ChatState {
  readonly span: Span;
  readonly startedAt: number;
}

/** Every run telemetry of one tree (a top-level run and its subagents). */
interface Tree {
  /** The telemetry {@link createRunTelemetry} made; the others come from `subagent`. */
  root?: RunTelemetryImpl;
  readonly members: Set<RunTelemetryImpl>;
  /** Subagents started and not finished: `depth` by key. */
  readonly active: Map<string, number>;
}

/** Outcome of a tool call, from its result. */
function outcomeOf(result: ToolResult): string {
  if (result.success) return "success";
  const metadata = result.metadata;
  if (metadata["refused"]) return "refused";
  if (metadata["invalidInput"]) return "invalid_input";
  if (metadata["timedOut"]) return "timeout";
  if (metadata["cancelled"]) return "cancelled";
  return "error";
}

function subagentKey(event: { depth: number; toolCallId: string; label: string }): string {
  return `${event.depth}\u0000${event.toolCallId}\u0000${event.label}`;
}

class RunTelemetryImpl implements RunTelemetry {
  readonly #tracer: Tracer;
  readonly #meter: Meter;
  readonly #metrics: Instruments;
  readonly #provider: string;
  readonly #model: string;
  readonly #parentContext: Context | undefined;
  readonly #agentName: string | undefined;
  readonly #tree: Tree;
  readonly #redact: (text: string) => string;
  readonly depth: number;
  /** Labels of model-request and token metrics. */
  readonly #modelLabels: Attributes;
  /** Attributes of the GenAI duration and token histograms. */
  readonly #chatLabels: Attributes;
  #run: { span: Span; context: Context } | undefined;
  #tools: ReadonlySet<string> = new Set();
  readonly #chats = new Map<number, ChatState>();
  readonly #calls = new Map<string, ToolCallState>();
  #contextLevel = "ok";

  constructor(options: RunTelemetryOptions, tree: Tree) {
    this.#tracer = options.tracer;
    this.#meter = options.meter;
    this.#metrics = instrumentsOf(options.meter);
    this.#provider = options.provider;
    this.#model = options.model;
    this.#parentContext = options.parentContext;
    this.#redact = options.redact ?? ((text) => text);
    this.#agentName = options.agentName;
    this.depth = options.depth ?? 0;
    this.#tree = tree;
    this.#modelLabels = { provider: this.#provider, model: this.#model };
    this.#chatLabels = {
      [A.operation]: "chat",
      [A.provider]: this.#provider,
      [A.model]: this.#model,
    };
  }

  get agentName(): string | undefined {
    return this.#agentName;
  }

  onEvent(event: TelemetryEvent): void {
    switch (event.type) {
      case "text-delta":
      case "tool-progress":
        return;
      case "run-started":
        this.#startRun(event.tools);
        return;
      case "turn-started":
        this.#startChat(event.turn);
        return;
      case "usage":
        this.#endChat(event.turn, event.usage);
        return;
      case "tool-call-requested":
        this.#startToolCall(event.toolCallId, event.toolName, event.turn);
        return;
      case "approval-requested": {
        const call = this.#calls.get(event.toolCallId);
        call?.span.addEvent("approval requested", {
          "xzatoma.tool.assessment": event.verdict,
          "xzatoma.approval.requires_person": event.requiresPerson === true,
        });
        return;
      }
      case "approval-answered":
        this.#answered(event.toolCallId, event.toolName, event.approved, event.byPerson === true);
        return;
      case "tool-result":
        this.#endToolCall(event.toolCallId, event.toolName, event.result, event.durationMs);
        return;
      case "context-pruned":
        this.#metrics.contextPrunes.add(1);
        this.#metrics.contextPrunedMessages.add(event.dropped);
        this.#run?.span.addEvent("context pruned", {
          "xzatoma.context.dropped_messages": event.dropped,
          "xzatoma.context.tokens_before": event.tokensBefore,
          "xzatoma.context.tokens_after": event.tokensAfter,
        });
        return;
      case "context-status":
        if (event.level !== this.#contextLevel) {
          this.#contextLevel = event.level;
          this.#run?.span.addEvent("context level", {
            "xzatoma.context.level": event.level,
            "xzatoma.context.tokens": event.tokens,
            "xzatoma.context.max_tokens": event.maxTokens,
          });
        }
        return;
      case "error":
        this.#failed(event.error.code, event.error.message);
        return;
      case "finished":
        this.#finish(event);
        return;
      case "subagent-started":
        this.#subagentStarted(event);
        return;
      case "subagent-finished":
        this.#subagentFinished(event);
        return;
      case "subagent-refused":
        this.#subagentRefused(event);
        return;
      default:
        return;
    }
  }

  contextForToolCall(toolCallId: string): Context | undefined {
    return this.#calls.get(toolCallId)?.context;
  }

  /**
   * The running call a subagent's `toolCallId` names: the id itself, or, for one of several
   * children of one `parallel_subagent` call (`<call id>#<n>`), the call's id.
   */
  #callOf(toolCallId: string): ToolCallState | undefined {
    return this.#calls.get(toolCallId) ?? this.#calls.get(toolCallId.replace(/#\d+$/, ""));
  }

  /** Whether a subagent with that `toolCallId` was started by a running call of this run. */
  startedSubagent(toolCallId: string): boolean {
    return this.#callOf(toolCallId) !== undefined;
  }

  /** The run span's context, while the run goes on. */
  get runContext(): Context | undefined {
    return this.#run?.context;
  }

  subagent(info: SubagentTelemetryInfo): RunTelemetry {
    const starter = findStarter(this.#tree, info);
    const parentContext =
      starter?.callContext(info.toolCallId) ?? starter?.runContext ?? this.runContext;
    return new RunTelemetryImpl(
      {
        tracer: this.#tracer,
        meter: this.#meter,
        provider: info.provider ?? this.#provider,
        model: info.model ?? this.#model,
        depth: info.depth,
        agentName: info.label,
        redact: this.#redact,
        ...(parentContext ? { parentContext } : {}),
      },
      this.#tree,
    );
  }

  #startRun(tools: readonly string[]): void {
    // A second run fed to the same telemetry: the first one's span is closed first.
    if (this.#run) this.#closeRun();
    this.#tools = new Set(tools);
    this.#tree.members.add(this);
    const attributes: Attributes = {
      [A.operation]: "invoke_agent",
      [A.provider]: this.#provider,
      [A.system]: this.#provider,
      [A.model]: this.#model,
      "xzatoma.agent.depth": this.depth,
    };
    if (this.#agentName !== undefined) attributes[A.agentName] = this.#redact(this.#agentName);
    const parent = this.#parentContext ?? ROOT_CONTEXT;
    const span = this.#tracer.startSpan(
      this.#agentName === undefined
        ? "invoke_agent"
        : `invoke_agent ${this.#redact(this.#agentName)}`,
      { kind: KIND_INTERNAL, attributes },
      parent,
    );
    this.#run = { span, context: withSpan(parent, span) };
  }

  #startChat(turn: number): void {
    const run = this.#run;
    if (!run) return;
    const span = this.#tracer.startSpan(
      `chat ${this.#model}`,
      {
        kind: KIND_CLIENT,
        attributes: {
          [A.operation]: "chat",
          [A.provider]: this.#provider,
          [A.system]: this.#provider,
          [A.model]: this.#model,
          "xzatoma.turn": turn,
        },
      },
      run.context,
    );
    this.#chats.set(turn, { span, startedAt: performance.now() });
  }

  #endChat(turn: number, usage: Usage): void {
    const chat = this.#chats.get(turn);
    const metrics = this.#metrics;
    if (chat) {
      this.#chats.delete(turn);
      chat.span.setAttributes({
        [A.inputTokens]: usage.inputTokens,
        [A.outputTokens]: usage.outputTokens,
      });
      chat.span.end();
      metrics.operationDuration.record(
        (performance.now() - chat.startedAt) / 1000,
        this.#chatLabels,
      );
    }
    metrics.modelRequests.add(1, { ...this.#modelLabels, outcome: "success" });
    metrics.tokens.add(usage.inputTokens, { ...this.#modelLabels, type: "input" });
    metrics.tokens.add(usage.outputTokens, { ...this.#modelLabels, type: "output" });
    metrics.tokenUsage.record(usage.inputTokens, { ...this.#chatLabels, [A.tokenType]: "input" });
    metrics.tokenUsage.record(usage.outputTokens, { ...this.#chatLabels, [A.tokenType]: "output" });
  }

  /** Ends the model requests still open: they failed with `errorType`. */
  #failChats(errorType: string, message: string): void {
    for (const [turn, chat] of this.#chats) {
      this.#chats.delete(turn);
      chat.span.setAttribute(A.errorType, errorType);
      chat.span.setStatus({ code: STATUS_ERROR, message: this.#redact(message) });
      chat.span.end();
      this.#metrics.modelRequests.add(1, { ...this.#modelLabels, outcome: "error" });
      this.#metrics.operationDuration.record((performance.now() - chat.startedAt) / 1000, {
        ...this.#chatLabels,
        [A.errorType]: errorType,
      });
    }
  }

  #startToolCall(toolCallId: string, toolName: string, turn: number): void {
    const run = this.#run;
    if (!run) return;
    const span = this.#tracer.startSpan(
      `execute_tool ${toolName}`,
      {
        kind: KIND_INTERNAL,
        attributes: {
          [A.operation]: "execute_tool",
          [A.toolName]: toolName,
          [A.toolCallId]: toolCallId,
          [A.toolType]: "function",
          "xzatoma.turn": turn,
        },
      },
      run.context,
    );
    this.#calls.set(toolCallId, { span, context: withSpan(run.context, span), toolName });
  }

  /** The tool's name as a metric label: a name the model made up is `_OTHER`. */
  #toolLabel(toolName: string): string {
    return this.#tools.has(toolName) ? toolName : "_OTHER";
  }

  #answered(toolCallId: string, toolName: string, approved: boolean, byPerson: boolean): void {
    const decision = approved ? "approved" : "denied";
    const call = this.#calls.get(toolCallId);
    if (call) {
      call.verdict = decision;
      call.span.addEvent("approval answered", {
        "xzatoma.approval.decision": decision,
        "xzatoma.approval.by_person": byPerson,
      });
    }
    this.#metrics.approvals.add(1, { tool: this.#toolLabel(toolName), decision });
  }

  #endToolCall(toolCallId: string, toolName: string, result: ToolResult, durationMs: number): void {
    const outcome = outcomeOf(result);
    const call = this.#calls.get(toolCallId);
    // `blocked`: refused by the tool's own judgement or a policy, nobody asked.
    const verdict = call?.verdict ?? (outcome === "refused" ? "blocked" : "not_asked");
    if (call) {
      this.#calls.delete(toolCallId);
      call.span.setAttributes({
        "xzatoma.tool.verdict": verdict,
        "xzatoma.tool.outcome": outcome,
        "xzatoma.tool.success": result.success,
      });
      if (!result.success) {
        call.span.setAttribute(A.errorType, outcome);
        call.span.setStatus({
          code: STATUS_ERROR,
          message: this.#redact(result.error ?? outcome).slice(0, 300),
        });
      }
      call.span.end();
    }
    const tool = this.#toolLabel(toolName);
    this.#metrics.toolCalls.add(1, { tool, verdict, outcome });
    this.#metrics.toolDuration.record(durationMs / 1000, { tool, outcome });
  }

  #failed(code: string, message: string): void {
    this.#failChats(code, message);
    const span = this.#run?.span;
    if (!span) return;
    span.setAttribute(A.errorType, code);
    span.setStatus({ code: STATUS_ERROR, message: this.#redact(message) });
  }

  #finish(event: Extract<AgentEvent, { type: "finished" }>): void {
    const stopReason: string = event.stopReason;
    // A model request the run stopped in the middle of (timeout, abort, context full).
    this.#failChats(stopReason, `The model request did not finish: ${stopReason}.`);
    this.#metrics.runs.add(1, { stop_reason: stopReason });
    const run = this.#run;
    if (run) {
      run.span.setAttributes({
        [A.inputTokens]: event.usage.inputTokens,
        [A.outputTokens]: event.usage.outputTokens,
        "xzatoma.stop_reason": stopReason,
        "xzatoma.turns": event.turns,
        "xzatoma.tool_calls": event.toolCalls,
      });
      // The whole tree's tokens (every subagent's, final answers included), when it may delegate.
      if (event.treeUsage) {
        run.span.setAttributes({
          "xzatoma.tree.input_tokens": event.treeUsage.inputTokens,
          "xzatoma.tree.output_tokens": event.treeUsage.outputTokens,
          "xzatoma.tree.total_tokens": event.treeUsage.totalTokens,
        });
      }
      if (event.quota) run.span.setAttribute("xzatoma.quota.budget", event.quota.budget);
    }
    if (this.#tree.root === this) this.#closeSubagents();
    this.#closeRun();
  }

  /** Ends whatever is still open: tool calls, then the run span. */
  #closeRun(): void {
    for (const [id, call] of this.#calls) {
      this.#calls.delete(id);
      call.span.setAttribute("xzatoma.tool.outcome", "unfinished");
      call.span.end();
    }
    this.#failChats("unfinished", "The run ended during the model request.");
    this.#run?.span.end();
    this.#run = undefined;
    this.#tree.members.delete(this);
  }

  /** Subagents the events never said finished no longer count as running once the tree ends. */
  #closeSubagents(): void {
    for (const [key, depth] of this.#tree.active) {
      this.#tree.active.delete(key);
      this.#metrics.subagentActive.add(-1, { depth });
    }
  }

  #subagentStarted(event: SubagentStartedEvent): void {
    const labels = { depth: event.depth };
    this.#metrics.subagentExecutions.add(1, labels);
    this.#metrics.subagentActive.add(1, labels);
    this.#tree.active.set(subagentKey(event), event.depth);
    const starter = findStarter(this.#tree, event);
    const call = starter?.callSpan(event.toolCallId);
    call?.addEvent("subagent started", {
      "xzatoma.subagent.label": this.#redact(event.label),
      "xzatoma.subagent.depth": event.depth,
    });
  }

  #subagentFinished(event: SubagentFinishedEvent): void {
    const depth = event.depth;
    const status = event.stopReason;
    const metrics = this.#metrics;
    if (this.#tree.active.delete(subagentKey(event))) metrics.subagentActive.add(-1, { depth });
    metrics.subagentDuration.record(event.durationMs / 1000, { depth, status });
    metrics.subagentTurns.record(event.turns, { depth });
    metrics.subagentTokens.record(event.usage.totalTokens, { depth });
    metrics.subagentCompletions.add(1, { depth, status });
    if (status !== "completed")
      metrics.subagentErrors.add(1, { depth, error_type: subagentErrorType(status) });
    const starter = findStarter(this.#tree, event);
    starter?.callSpan(event.toolCallId)?.addEvent("subagent finished", {
      "xzatoma.subagent.label": this.#redact(event.label),
      "xzatoma.subagent.depth": depth,
      "xzatoma.subagent.stop_reason": status,
      "xzatoma.subagent.turns": event.turns,
      [A.inputTokens]: event.usage.inputTokens,
      [A.outputTokens]: event.usage.outputTokens,
    });
  }

  #subagentRefused(event: SubagentRefusedEvent): void {
    this.#metrics.subagentErrors.add(1, { depth: event.depth, error_type: event.errorType });
    findStarter(this.#tree, event)
      ?.callSpan(event.toolCallId)
      ?.addEvent("subagent refused", {
        "xzatoma.subagent.label": this.#redact(event.label),
        "xzatoma.subagent.depth": event.depth,
        [A.errorType]: event.errorType,
      });
  }

  /** The span of the running tool call that started a subagent with that `toolCallId`. */
  callSpan(toolCallId: string): Span | undefined {
    return this.#callOf(toolCallId)?.span;
  }

  /** The context of the running tool call that started a subagent with that `toolCallId`. */
  callContext(toolCallId: string): Context | undefined {
    return this.#callOf(toolCallId)?.context;
  }
}

/**
 * The run whose running tool call started a subagent: at the depth above it, named as its
 * `parent` says (the top-level run has no name), holding a call with that id.
 */
function findStarter(
  tree: Tree,
  info: { toolCallId: string; depth: number; parent?: string },
): RunTelemetryImpl | undefined {
  let fallback: RunTelemetryImpl | undefined;
  for (const member of tree.members) {
    if (member.depth !== info.depth - 1 || !member.startedSubagent(info.toolCallId)) continue;
    if (info.parent === undefined || member.agentName === info.parent) return member;
    fallback ??= member;
  }
  return fallback;
}

/**
 * Traces and metrics of one agent run, derived from its event stream: an `invoke_agent`
 * span for the run, a `chat <model>` span per model request and an `execute_tool <name>`
 * span per tool call (children of the run span), following the OpenTelemetry GenAI semantic
 * conventions; counters and histograms of requests, tokens, tool calls, approvals, pruning
 * and subagents. Needs only `@opentelemetry/api`: the caller brings a tracer and a meter
 * (an SDK's, or the API's no-op ones). Nothing of the conversation (prompts, answers, tool
 * input or output) is recorded.
 *
 * @example
 * const telemetry = createRunTelemetry({ tracer, meter, provider: "ollama", model: "llama3.2" });
 * await agent.run("Summarise README.md", { onEvent: (event) => telemetry.onEvent(event) });
 */
export function createRunTelemetry(options: RunTelemetryOptions): RunTelemetry {
  const tree: Tree = { members: new Set(), active: new Map() };
  const telemetry = new RunTelemetryImpl(options, tree);
  tree.root = telemetry;
  return telemetry;
}
