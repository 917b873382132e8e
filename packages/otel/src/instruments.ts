import type { Counter, Histogram, Meter, UpDownCounter } from "@opentelemetry/api";

/**
 * The metric instruments of XZatoma on one meter. Names and labels are documented in
 * docs/reference/telemetry.md; the `gen_ai.*` ones follow the OpenTelemetry GenAI semantic
 * conventions, the others use Prometheus-style names so they read the same in a scrape and
 * in an OTLP backend.
 */
export interface Instruments {
  readonly runs: Counter;
  readonly modelRequests: Counter;
  readonly tokens: Counter;
  readonly operationDuration: Histogram;
  readonly tokenUsage: Histogram;
  readonly toolCalls: Counter;
  readonly toolDuration: Histogram;
  readonly approvals: Counter;
  readonly contextPrunes: Counter;
  readonly contextPrunedMessages: Counter;
  readonly subagentExecutions: Counter;
  readonly subagentActive: UpDownCounter;
  readonly subagentDuration: Histogram;
  readonly subagentTurns: Histogram;
  readonly subagentTokens: Histogram;
  readonly subagentCompletions: Counter;
  readonly subagentErrors: Counter;
}

/** The instrument names, for documentation and tests. */
export const METRIC_NAMES = Object.freeze({
  runs: "xzatoma_runs_total",
  modelRequests: "xzatoma_model_requests_total",
  tokens: "xzatoma_tokens_total",
  operationDuration: "gen_ai.client.operation.duration",
  tokenUsage: "gen_ai.client.token.usage",
  toolCalls: "xzatoma_tool_calls_total",
  toolDuration: "xzatoma_tool_duration_seconds",
  approvals: "xzatoma_approvals_total",
  contextPrunes: "xzatoma_context_prunes_total",
  contextPrunedMessages: "xzatoma_context_pruned_messages_total",
  subagentExecutions: "subagent_executions_total",
  subagentActive: "subagent_active_count",
  subagentDuration: "subagent_duration_seconds",
  subagentTurns: "subagent_turns_used",
  subagentTokens: "subagent_tokens_consumed",
  subagentCompletions: "subagent_completions_total",
  subagentErrors: "subagent_errors_total",
});

// Bucket boundaries the GenAI semantic conventions advise for their two histograms.
const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];
const TOOL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const SUBAGENT_SECONDS = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];
const SUBAGENT_TURNS = [1, 2, 3, 5, 8, 13, 21, 34, 55, 100];
const SUBAGENT_TOKENS = [100, 500, 1000, 5000, 10000, 50000, 100000, 500000, 1000000, 5000000];

const cache = new WeakMap<Meter, Instruments>();

function create(meter: Meter): Instruments {
  const n = METRIC_NAMES;
  return {
    runs: meter.createCounter(n.runs, { description: "Agent runs that ended, by stop reason." }),
    modelRequests: meter.createCounter(n.modelRequests, {
      description: "Model requests (one per turn), by provider, model and outcome.",
    }),
    tokens: meter.createCounter(n.tokens, {
      description: "Tokens the provider reported, by provider, model and type (input, output).",
      unit: "{token}",
    }),
    operationDuration: meter.createHistogram(n.operationDuration, {
      description: "Duration of one model request (GenAI semantic conventions).",
      unit: "s",
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    tokenUsage: meter.createHistogram(n.tokenUsage, {
      description:
        "Tokens of one model request, by gen_ai.token.type (GenAI semantic conventions).",
      unit: "{token}",
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    }),
    toolCalls: meter.createCounter(n.toolCalls, {
      description: "Tool calls the model asked for, by tool, approval verdict and outcome.",
    }),
    toolDuration: meter.createHistogram(n.toolDuration, {
      description: "Duration of one tool call, approval included, by tool and outcome.",
      unit: "s",
      advice: { explicitBucketBoundaries: TOOL_BUCKETS },
    }),
    approvals: meter.createCounter(n.approvals, {
      description: "Answers to approval requests, by tool and decision.",
    }),
    contextPrunes: meter.createCounter(n.contextPrunes, {
      description: "Times the conversation was pruned to fit the model's context window.",
    }),
    contextPrunedMessages: meter.createCounter(n.contextPrunedMessages, {
      description: "Messages hidden from the model by pruning.",
    }),
    subagentExecutions: meter.createCounter(n.subagentExecutions, {
      description: "Subagents started, by depth.",
    }),
    subagentActive: meter.createUpDownCounter(n.subagentActive, {
      description: "Subagents running now, by depth.",
    }),
    subagentDuration: meter.createHistogram(n.subagentDuration, {
      description: "Duration of one subagent, by depth and status (its stop reason).",
      unit: "s",
      advice: { explicitBucketBoundaries: SUBAGENT_SECONDS },
    }),
    subagentTurns: meter.createHistogram(n.subagentTurns, {
      description: "Model requests one subagent made, by depth.",
      advice: { explicitBucketBoundaries: SUBAGENT_TURNS },
    }),
    subagentTokens: meter.createHistogram(n.subagentTokens, {
      description: "Tokens one subagent used (input and output), by depth.",
      unit: "{token}",
      advice: { explicitBucketBoundaries: SUBAGENT_TOKENS },
    }),
    subagentCompletions: meter.createCounter(n.subagentCompletions, {
      description: "Subagents that finished, by depth and status (its stop reason).",
    }),
    subagentErrors: meter.createCounter(n.subagentErrors, {
      description: "Subagents that did not complete their task, by depth and error type.",
    }),
  };
}

/** The instruments of `meter`, created on first use and shared by every run after. */
export function instrumentsOf(meter: Meter): Instruments {
  let instruments = cache.get(meter);
  if (!instruments) {
    instruments = create(meter);
    cache.set(meter, instruments);
  }
  return instruments;
}
