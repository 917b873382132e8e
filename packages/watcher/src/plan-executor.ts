/** The event a plan came from. */
export interface TriggerRef {
  readonly id: string;
  readonly source: string;
  readonly type: string;
}

/** What the watcher asks the agent to do for one event. */
export interface ExecutionRequest {
  readonly prompt: string;
  /** The plan's own turn limit, when it sets one. */
  readonly maxTurns?: number;
  /**
   * True only when the configuration's `execution.allow_dangerous` is on and the plan asks for
   * it; a message alone can never make this true.
   */
  readonly allowDangerous: boolean;
  /** A title for the conversation in history. */
  readonly title: string;
  readonly trigger: TriggerRef;
  /** The W3C trace context the run belongs to. */
  readonly traceparent: string;
}

/** How a run ended, as the watcher reports it. */
export interface ExecutionReport {
  /** The agent's stop reason (`completed`, `max-turns`, `timeout`, `error`, ...). */
  readonly stopReason: string;
  /** The agent's answer. */
  readonly text: string;
  readonly usage?: {
    readonly inputTokens?: number;
    readonly outputTokens?: number;
    readonly totalTokens?: number;
  };
  readonly turns?: number;
  readonly conversationId?: string;
  /** What went wrong, when the run failed with an error. */
  readonly error?: string;
}

/**
 * Runs one request through the agent (the app passes the runtime's). Rejects or reports
 * `error` for a failure worth retrying (the model server is away); resolves with any other
 * stop reason for a run that ended. Must honour `signal`.
 */
export type PlanExecutor = (
  request: ExecutionRequest,
  signal: AbortSignal,
) => Promise<ExecutionReport>;
