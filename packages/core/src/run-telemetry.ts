// The port between a runtime and the telemetry that records its runs: types only. The
// implementation, which turns the events into OpenTelemetry spans and metrics, is
// `createRunTelemetry` of `@xzatoma/otel`; an app passes it to the runtime with its tracer
// and meter (`RunTelemetrySource`), so neither core nor the runtime carries it
// (docs/explanation/telemetry-subscriber.md). The OpenTelemetry names are type imports: loading
// core loads no OpenTelemetry module.
import type { Context, Meter, Tracer } from "@opentelemetry/api";
import type { AgentEvent } from "./agent-event.js";
import type { Usage } from "./usage.js";

/**
 * A subagent started by a tool call of some run of the tree (the `subagent` and
 * `parallel_subagent` tools). They reach the top-level run's event stream.
 */
export interface SubagentStartedEvent {
  readonly type: "subagent-started";
  readonly turn: number;
  readonly toolCallId: string;
  readonly label: string;
  /** 1 for a child of the top-level run, 2 for a grandchild, ... */
  readonly depth: number;
  /** The label of the subagent that started it; absent for a child of the top-level run. */
  readonly parent?: string;
}

/** A subagent ended (see {@link SubagentStartedEvent}). */
export interface SubagentFinishedEvent {
  readonly type: "subagent-finished";
  readonly turn: number;
  readonly toolCallId: string;
  readonly label: string;
  readonly depth: number;
  readonly parent?: string;
  readonly stopReason: string;
  readonly turns: number;
  readonly usage: Usage;
  readonly durationMs: number;
  readonly error?: string;
}

/**
 * The `error_type` values of `subagent_errors_total` (docs/reference/telemetry.md):
 * - `max_depth_reached`: a call past `agent.subagent.max_depth`, refused;
 * - `invalid_input`: a call whose input was refused (`allowed_tools` naming a tool its
 *   caller lacks);
 * - `quota_exceeded`: refused because the tree's quota was used up, or stopped with `quota`;
 * - `initialization_failed`: the child's agent could not be made;
 * - `execution_failed`: a child that ran and stopped with any other reason than `completed`
 *   or `quota` (its exact stop reason is the `status` of `subagent_completions_total`).
 * There is no `empty_tasks` value: `parallel_subagent`'s input schema refuses an empty
 * `tasks` before the tool runs (`xzatoma_tool_calls_total{outcome="invalid_input"}`).
 */
export type SubagentErrorType =
  | "max_depth_reached"
  | "invalid_input"
  | "quota_exceeded"
  | "initialization_failed"
  | "execution_failed";

/**
 * A subagent call refused before any child started (see {@link SubagentErrorType}). Not an
 * event of the agent: the runtime that owns the delegation tools feeds it to the tree's
 * telemetry. `depth` is the depth the child would have had.
 */
export interface SubagentRefusedEvent {
  readonly type: "subagent-refused";
  readonly turn: number;
  readonly toolCallId: string;
  readonly label: string;
  readonly depth: number;
  readonly parent?: string;
  readonly errorType: SubagentErrorType;
  /** What the calling model read. */
  readonly error: string;
}

/** What {@link RunTelemetry.onEvent} reads: the agent's events, subagent events included. */
export type TelemetryEvent =
  AgentEvent | SubagentStartedEvent | SubagentFinishedEvent | SubagentRefusedEvent;

/** Options of `createRunTelemetry` (of `@xzatoma/otel`). */
export interface RunTelemetryOptions {
  readonly tracer: Tracer;
  readonly meter: Meter;
  /** The provider's name (`ollama`, `openai`, ...): `gen_ai.provider.name`. */
  readonly provider: string;
  /** The model the run talks to: `gen_ai.request.model`. */
  readonly model: string;
  /**
   * The context the run span is a child of: a parent's tool-call span for a subagent (see
   * {@link RunTelemetry.contextForToolCall}), or an app's own span (`context.active()` of
   * the API). Default: none, the run starts a trace.
   */
  readonly parentContext?: Context;
  /** 0 for a top-level run, n for a subagent n levels below it. Default 0. */
  readonly depth?: number;
  /** `gen_ai.agent.name`, also in the run span's name (`invoke_agent <name>`): a subagent's label. */
  readonly agentName?: string;
  /**
   * Applied to the text spans carry (status messages: a failed tool's error, which may
   * quote a command's output; a subagent's label): `redactSecrets` of `@xzatoma/safety`,
   * as XZatoma's runtime passes it. Subagents inherit it. Default: the text as it is.
   */
  readonly redact?: (text: string) => string;
}

/** Which subagent a {@link RunTelemetry.subagent} call is for: the fields of its `subagent-started` event. */
export interface SubagentTelemetryInfo {
  readonly toolCallId: string;
  readonly label: string;
  readonly depth: number;
  readonly parent?: string;
  /** Its model, when it differs from its parent's. */
  readonly model?: string;
  /** Its provider, when it differs from its parent's. */
  readonly provider?: string;
}

/** Turns one run's events into spans and metrics: what `createRunTelemetry` returns. */
export interface RunTelemetry {
  /** Feed every event of the run, in order (an `onEvent` of `Agent.run`). */
  onEvent(event: TelemetryEvent): void;
  /**
   * The context of the tool call's span while it runs (undefined before and after): pass it
   * as `parentContext` of a run that the call starts, so that run's span is its child.
   */
  contextForToolCall(toolCallId: string): Context | undefined;
  /**
   * Telemetry for a subagent started by a running tool call of this run or of one of its
   * subagents (at `info.depth - 1`): its run span is a child of that call's span. Feed it the
   * subagent's own events.
   */
  subagent(info: SubagentTelemetryInfo): RunTelemetry;
}

/**
 * What a runtime records its runs into (`telemetry` of `createAgentRuntime`): the tracer
 * and meter, and the function that turns one run's events into spans and metrics. The
 * object `startSdk` of `@xzatoma/otel` resolves with is one; an embedder with its own SDK
 * passes `{ tracer, meter, createRunTelemetry }` with `createRunTelemetry` of
 * `@xzatoma/otel`.
 */
export interface RunTelemetrySource {
  readonly tracer: Tracer;
  readonly meter: Meter;
  /** The context each run's span is a child of; see {@link RunTelemetryOptions.parentContext}. */
  readonly parentContext?: Context;
  readonly createRunTelemetry: (options: RunTelemetryOptions) => RunTelemetry;
}
