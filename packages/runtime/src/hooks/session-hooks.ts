import { hooksOf, type HookEventName } from "./hooks-config.js";
import { createHookRunner, type HookContext, type HookRunner } from "./hook-runner.js";

/** How a session started (`SessionStart`'s `source`, its matcher). */
export type SessionStartSource = "startup" | "resume" | "clear" | "compact";
/** Why a session ended (`SessionEnd`'s `reason`, its matcher). */
export type SessionEndReason = "clear" | "logout" | "prompt_input_exit" | "other";

/** A subagent as its hooks see it. */
export interface SubagentHookInfo {
  /** Unique in the session: the delegating call's id and the child's label. */
  readonly agentId: string;
  readonly label: string;
  readonly depth: number;
}

/**
 * Ends a `Stop` or `SubagentStop` hook's continuation after this many: a hook that always
 * blocks cannot keep a run (and its tokens) going for ever.
 */
export const MAX_STOP_CONTINUATIONS = 5;

/**
 * The hooks of a session's life, beside the tool hooks of `withHooks`: each function runs
 * the matching hooks and turns their answers into what the runtime does next. Hooks of
 * events that cannot stop anything (`SessionStart`, `SessionEnd`, `SubagentStart`,
 * `PreCompact`, `Notification`) show an exit-2 message to the person, never to the model.
 */
export interface SessionHooks {
  readonly runner: HookRunner;
  /** Whether `event` has any hook (whatever its matcher). */
  configured(event: HookEventName): boolean;
  /** `SessionStart`: what the hooks add to the model's instructions. */
  start(source: SessionStartSource, model: string): Promise<string[]>;
  /** `SessionEnd`. */
  end(reason: SessionEndReason): Promise<void>;
  /** `UserPromptSubmit`: a refusal for the person, or context for the model. */
  promptSubmitted(prompt: string): Promise<{ blocked?: string; context: readonly string[] }>;
  /** `Stop`: a reason to go on (the model reads it), or undefined to stop. */
  stop(lastMessage: string, active: boolean): Promise<string | undefined>;
  /** `SubagentStart`: what the hooks add to the subagent's task. */
  subagentStart(child: SubagentHookInfo): Promise<string[]>;
  /** `SubagentStop`: a reason for the subagent to go on, or undefined. */
  subagentStop(
    child: SubagentHookInfo,
    lastMessage: string,
    active: boolean,
  ): Promise<string | undefined>;
  /** `PreCompact`, awaited (manual) or tracked until {@link settle} (automatic). */
  preCompact(trigger: "manual" | "auto", instructions?: string): Promise<void>;
  /** `Notification`: runs beside what raised it; {@link settle} waits for it. */
  notify(type: string, message: string): void;
  /** Waits for the hooks started without waiting (notifications, automatic compaction). */
  settle(): Promise<void>;
}

const SUBAGENT_TYPE = "subagent";

/** Creates the session hooks of one runtime. */
export function createSessionHooks(context: HookContext): SessionHooks {
  const runner = createHookRunner(context);
  const warn = (message: string) => context.warn?.(message);
  // Hooks started without waiting run one after another, in the order raised: two
  // notifications never overlap, and each sees the session as it was when it was raised.
  let background: Promise<unknown> = Promise.resolve();
  const pending = new Set<Promise<unknown>>();
  const track = (start: () => Promise<unknown>) => {
    const running = background.then(start, start);
    background = running;
    pending.add(running);
    const done = () => pending.delete(running);
    void running.then(done, done);
  };
  /** Runs hooks that cannot refuse anything; an exit-2 message is the person's. */
  const inform = async (
    event: HookEventName,
    subject: string,
    fields: Record<string, unknown>,
    textIsContext = false,
  ): Promise<string[]> => {
    const verdict = await runner.fire(event, subject, fields, { textIsContext, runAll: true });
    if (verdict.blocked !== undefined) warn(`${event} hook: ${verdict.blocked}`);
    return [...verdict.context];
  };
  const subagentFields = (child: SubagentHookInfo) => ({
    agent_id: child.agentId,
    agent_type: SUBAGENT_TYPE,
    agent_label: child.label,
    agent_depth: child.depth,
  });
  return {
    runner,
    configured: (event) => hooksOf(context.hooks, event).length > 0,
    start: (source, model) => inform("SessionStart", source, { source, model }, true),
    async end(reason) {
      await inform("SessionEnd", reason, { reason });
    },
    async promptSubmitted(prompt) {
      const verdict = await runner.fire(
        "UserPromptSubmit",
        undefined,
        { prompt },
        { textIsContext: true },
      );
      return {
        ...(verdict.blocked !== undefined ? { blocked: verdict.blocked } : {}),
        context: verdict.context,
      };
    },
    async stop(lastMessage, active) {
      const verdict = await runner.fire("Stop", undefined, {
        stop_hook_active: active,
        last_assistant_message: lastMessage,
      });
      return verdict.blocked;
    },
    subagentStart: (child) => inform("SubagentStart", SUBAGENT_TYPE, subagentFields(child)),
    async subagentStop(child, lastMessage, active) {
      const verdict = await runner.fire("SubagentStop", SUBAGENT_TYPE, {
        ...subagentFields(child),
        stop_hook_active: active,
        last_assistant_message: lastMessage,
      });
      return verdict.blocked;
    },
    async preCompact(trigger, instructions) {
      const start = () =>
        inform("PreCompact", trigger, { trigger, custom_instructions: instructions ?? "" });
      if (trigger === "auto") track(start);
      else await start();
    },
    notify(type, message) {
      if (!runner.has("Notification", type)) return;
      track(() =>
        inform("Notification", type, { message, title: "XZatoma", notification_type: type }),
      );
    },
    async settle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

/** `text` with what hooks of `event` added, under a line saying where it came from. */
export function withPromptContext(
  text: string,
  event: HookEventName,
  added: readonly string[],
): string {
  return added.length === 0 ? text : `${text}\n\nContext from ${event} hooks:\n${added.join("\n")}`;
}

/** The parts of a run's result that add up over its continuations. */
interface Summable {
  readonly stopReason: string;
  readonly text: string;
  readonly turns: number;
  readonly toolCalls: number;
  readonly usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  readonly durationMs: number;
}

/**
 * Runs `input`, then, while the run completed and a `Stop` hook blocks, runs again with the
 * hook's reason as the next message (`stop_hook_active` true), at most
 * {@link MAX_STOP_CONTINUATIONS} times. The result is the last run's, with turns, tool calls,
 * tokens and time of all of them.
 */
export async function runUntilStopHooksAgree<Result extends Summable>(
  hooks: Pick<SessionHooks, "configured" | "runner"> & Partial<Pick<SessionHooks, "stop">>,
  input: string,
  runOnce: (input: string) => Promise<Result>,
  event: "Stop" | "SubagentStop" = "Stop",
  stop: (lastMessage: string, active: boolean) => Promise<string | undefined> = (
    message,
    active,
  ) => (hooks.stop ? hooks.stop(message, active) : Promise.resolve(undefined)),
): Promise<Result> {
  let result = await runOnce(input);
  if (!hooks.configured(event)) return result;
  for (let continued = 0; result.stopReason === "completed"; continued += 1) {
    const reason = await stop(result.text, continued > 0);
    if (reason === undefined) break;
    if (continued >= MAX_STOP_CONTINUATIONS) {
      hooks.runner.context.warn?.(
        `${event} hook: still blocking after ${MAX_STOP_CONTINUATIONS} continuations, so the agent stops here: ${reason}`,
      );
      break;
    }
    const next = await runOnce(`A ${event} hook asks you to go on: ${reason}`);
    result = {
      ...next,
      turns: result.turns + next.turns,
      toolCalls: result.toolCalls + next.toolCalls,
      durationMs: result.durationMs + next.durationMs,
      usage: {
        inputTokens: result.usage.inputTokens + next.usage.inputTokens,
        outputTokens: result.usage.outputTokens + next.usage.outputTokens,
        totalTokens: result.usage.totalTokens + next.usage.totalTokens,
      },
    };
  }
  return result;
}
