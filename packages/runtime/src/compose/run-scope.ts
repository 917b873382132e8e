import type { AgentEvent, RunTelemetry } from "@xzatoma/core";
import type { RuntimeConfig } from "../config/config-values.js";
import { createQuota, type Quota } from "../subagents/quota.js";
import type { QuotaConfig } from "../subagents/subagent-config.js";

/**
 * What one top-level run shares with every subagent it starts: the tree's quota, where the
 * tree's events go, the current turn, the run's telemetry, and the children still running.
 * One per runtime, started again by each top-level run; the subagent tools read it through
 * the functions of their scope, so a child always sees the run in progress.
 */
export class RunScope {
  quota: Quota;
  /** Where the tree's events go: the recorder, telemetry and subscribers while a run lasts. */
  emit: (event: AgentEvent) => void = () => undefined;
  /** The top-level agent's current turn, for the subagents' events. */
  turn = 0;
  telemetry: RunTelemetry | undefined;
  readonly #children = new Set<Promise<unknown>>();
  readonly #config: RuntimeConfig;

  constructor(config: RuntimeConfig) {
    this.#config = config;
    this.quota = createQuota(treeQuotaConfig(config));
  }

  /** A new top-level run: a fresh quota for its tree, turn 0, and its telemetry. */
  begin(telemetry: RunTelemetry | undefined): Quota {
    this.quota.close();
    this.quota = createQuota(treeQuotaConfig(this.#config));
    this.turn = 0;
    this.telemetry = telemetry;
    return this.quota;
  }

  /** The run is over: its events go nowhere until the next one begins. */
  end(): void {
    this.emit = () => undefined;
  }

  /** A child's run, started: the top-level run is reported over only once it has ended. */
  track(running: Promise<unknown>): void {
    this.#children.add(running);
    const done = () => this.#children.delete(running);
    void running.then(done, done);
  }

  /**
   * Waits for every child still running. A run that ended early (cancelled, a limit) has
   * told its children to stop through their tool calls' signals; each stores how it ended
   * before the run is reported over.
   */
  async settleChildren(): Promise<void> {
    if (this.#children.size > 0) await Promise.allSettled([...this.#children]);
  }
}

/**
 * The tree's quota: `agent.quota`, with the deprecated older names (`agent.subagent.max_executions`,
 * `max_total_tokens`, `max_total_time`) still winning when set; `loadConfig` warns for each.
 */
export function treeQuotaConfig(config: RuntimeConfig): QuotaConfig {
  const { quota, subagent } = config.agent;
  return {
    max_executions: subagent.max_executions ?? quota.max_executions,
    max_total_tokens: subagent.max_total_tokens ?? quota.max_total_tokens,
    max_total_tool_calls: quota.max_total_tool_calls,
    max_total_time_seconds: subagent.max_total_time ?? quota.max_total_time_seconds,
  };
}
