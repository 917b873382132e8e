import type { History } from "@xzatoma/persistence";
import { contextOfTraceparent, type ExecutionReport, type PlanExecutor } from "../index.js";
import {
  createAgentRuntime,
  prepareRuntimeTemplate,
  type AgentRuntimeOptions,
  type RuntimeConfig,
  type RuntimeTemplate,
} from "@xzatoma/runtime";
import { withSharedModels } from "./shared-models.js";

/** What {@link createRuntimeExecutor} needs. */
export interface RuntimeExecutorOptions {
  readonly config: RuntimeConfig;
  /** Where plans run: an existing directory. */
  readonly workspace: string;
  readonly configPath?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly telemetry?: AgentRuntimeOptions["telemetry"];
  /** An already created provider (tests, embedders); else the first run's is kept for the rest. */
  readonly provider?: AgentRuntimeOptions["provider"];
  /** The history database the service keeps open; each run records its conversation there. */
  readonly history?: History;
  readonly warn: (message: string) => void;
}

/**
 * Runs each event's plan in a fresh agent runtime: a new conversation (recorded in history
 * under the event's title), the configured provider, tools and command policy, and nobody to
 * ask: the approval policy is `never`, so commands that do not escalate run in the sandbox and
 * an escalation is refused with its reason. Nothing an event carries widens that.
 *
 * What is the same for every event and never changes is read once, at the first event, and
 * shared: the provider and its model clients (see shared-models.ts), and the runtime template
 * (the sandbox and its start-up check, the workspace's AGENTS.md, the skills and custom
 * commands offered). Everything an event can
 * change (its conversation, tools, workspace guard, approvals, limits, quota, history
 * recorder) is built again for each event. See docs/explanation/watcher-delivery.md.
 */
export function createRuntimeExecutor(options: RuntimeExecutorOptions): PlanExecutor {
  // One provider (its client, credentials and model lookups) for every run of the service.
  let provider = options.provider ? withSharedModels(options.provider) : undefined;
  let template: Promise<RuntimeTemplate> | undefined;
  const templateOf = (): Promise<RuntimeTemplate> => {
    template ??= prepareRuntimeTemplate(
      options.config,
      { warn: options.warn },
      {
        workspace: options.workspace,
        ...(options.env !== undefined ? { env: options.env } : {}),
      },
    ).catch((error: unknown) => {
      // Read again for the next event: this one fails with the reason.
      template = undefined;
      throw error;
    });
    return template;
  };
  return async (request, signal): Promise<ExecutionReport> => {
    // The run's span continues the watcher's trace: a child of the span that handles the event.
    const parentContext = contextOfTraceparent(request.traceparent);
    const runtime = await createAgentRuntime(
      options.config,
      { warn: options.warn },
      {
        workspace: options.workspace,
        // Nobody is asked: an escalation is refused, whatever the event or the plan asks for.
        modes: { chatMode: "write", approvalPolicy: "never" },
        template: await templateOf(),
        // Checkpoints of the events that change files only: an index per event that changed
        // nothing has nothing to rewind, and nothing would ever prune it.
        checkpointUnchanged: false,
        ...(options.configPath !== undefined ? { configPath: options.configPath } : {}),
        ...(options.env !== undefined ? { env: options.env } : {}),
        ...(request.maxTurns !== undefined ? { limits: { maxTurns: request.maxTurns } } : {}),
        ...(options.telemetry !== undefined
          ? {
              telemetry: {
                tracer: options.telemetry.tracer,
                meter: options.telemetry.meter,
                createRunTelemetry: options.telemetry.createRunTelemetry,
                ...(parentContext !== undefined ? { parentContext } : {}),
              },
            }
          : {}),
        ...(provider !== undefined ? { provider } : {}),
        history: {
          title: () => request.title,
          ...(options.history !== undefined ? { store: options.history } : {}),
        },
      },
    );
    provider ??= withSharedModels(runtime.provider);
    try {
      const result = await runtime.run(request.prompt, { signal });
      return {
        stopReason: result.stopReason,
        text: result.text,
        usage: {
          inputTokens: result.usage.inputTokens ?? 0,
          outputTokens: result.usage.outputTokens ?? 0,
          totalTokens: result.usage.totalTokens ?? 0,
        },
        turns: result.turns,
        ...(runtime.conversationId !== undefined ? { conversationId: runtime.conversationId } : {}),
        ...(result.error !== undefined ? { error: errorText(result.error) } : {}),
      };
    } finally {
      await runtime.close();
    }
  };
}

function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  if (error instanceof Error) return error.message;
  if (error !== null && typeof error === "object" && "message" in error)
    return String((error as { message: unknown }).message);
  return String(error);
}
