import {
  hooksOf,
  matchingHooks,
  NO_HOOKS,
  type HookEventName,
  type HooksConfig,
} from "./hooks-config.js";
import { parseHookOutput } from "./hook-output.js";
import { runHook } from "./run-hook.js";

/** Where hooks run and what they are told. */
export interface HookContext {
  readonly hooks: HooksConfig;
  /** The hooks' working directory: XZatoma's data directory, never the workspace. */
  readonly cwd: string;
  readonly workspace: string;
  readonly env: NodeJS.ProcessEnv;
  readonly sessionId: () => string | undefined;
  /** The approval policy in force (the events' `permission_mode`). Default none. */
  readonly permissionMode?: () => string;
  /** Shows the person a hook's `systemMessage`, and failures of hooks that cannot block. */
  readonly warn?: (message: string) => void;
}

/** What the hooks of one event said, together. */
export interface HookVerdict {
  /**
   * Set when a hook refused: exit 2 (its standard error), `decision: "block"` (its
   * `reason`), `permissionDecision: "deny"`, or `continue: false` (its `stopReason`).
   */
  readonly blocked?: string;
  /** Hooks that could not start, exited otherwise than 0 or 2, timed out or printed bad JSON. */
  readonly failures: readonly string[];
  /** `additionalContext`, and for the events that take it plain standard output. */
  readonly context: readonly string[];
  /** The tool input after the hooks' `updatedInput` (`PreToolUse`), when one changed it. */
  readonly updatedInput?: Record<string, unknown>;
  /** A `permissionDecision: "ask"`: only a person's yes may let the call run. */
  readonly ask?: string;
}

/** Options of one {@link HookRunner.fire}. */
export interface FireOptions {
  /** Plain standard output on exit 0 is context for the model (`UserPromptSubmit`, `SessionStart`). */
  readonly textIsContext?: boolean;
  /** Stop at the first hook that fails, as at the first that blocks (`PreToolUse`). */
  readonly failClosed?: boolean;
  /**
   * Run every matching hook even after one blocked, their reasons joined (events whose
   * action already happened or cannot be stopped: `PostToolUse`, notifications). Default:
   * the first hook that blocks ends the event.
   */
  readonly runAll?: boolean;
}

/** Runs the configured hooks of each event. */
export interface HookRunner {
  readonly context: HookContext;
  /** Whether any hook of `event` matches `subject`. */
  has(event: HookEventName, subject?: string): boolean;
  /**
   * Runs the hooks of `event` that match `subject`, one after another, each given the event as
   * JSON (the common fields and `fields`). A `PreToolUse` rewrite is passed on: a later hook
   * sees the input as the earlier one left it. Stops at the first hook that blocks, unless
   * `runAll`.
   */
  fire(
    event: HookEventName,
    subject: string | undefined,
    fields: Record<string, unknown>,
    options?: FireOptions,
  ): Promise<HookVerdict>;
}

const EMPTY: HookVerdict = { failures: [], context: [] };

/** Creates the hook runner of one runtime. */
export function createHookRunner(context: HookContext): HookRunner {
  const hooks = context.hooks ?? NO_HOOKS;
  // Made when a hook first runs: copying the environment is most of what building a runner
  // costs, and a service builds one for every event whether or not hooks are configured.
  let env: NodeJS.ProcessEnv | undefined;
  const hookEnv = (): NodeJS.ProcessEnv =>
    (env ??= {
      ...context.env,
      XZATOMA_PROJECT_DIR: context.workspace,
      // Existing hook scripts find the project where Claude Code tells them.
      CLAUDE_PROJECT_DIR: context.workspace,
    });
  return {
    context,
    has: (event, subject) => matchingHooks(hooksOf(hooks, event), subject).length > 0,
    async fire(event, subject, fields, options = {}) {
      const commands = matchingHooks(hooksOf(hooks, event), subject);
      if (commands.length === 0) return EMPTY;
      const failures: string[] = [];
      const added: string[] = [];
      let updatedInput: Record<string, unknown> | undefined;
      let ask: string | undefined;
      const reasons: string[] = [];
      const done = (blocked?: string): HookVerdict => ({
        ...(blocked !== undefined || reasons.length > 0
          ? { blocked: [...reasons, ...(blocked !== undefined ? [blocked] : [])].join("\n") }
          : {}),
        failures,
        context: added,
        ...(updatedInput ? { updatedInput } : {}),
        ...(ask !== undefined ? { ask } : {}),
      });
      for (const hook of commands) {
        const payload = {
          session_id: context.sessionId() ?? "",
          cwd: context.workspace,
          permission_mode: context.permissionMode?.() ?? "default",
          hook_event_name: event,
          ...fields,
          ...(updatedInput ? { tool_input: updatedInput } : {}),
        };
        const outcome = await runHook(hook, payload, { cwd: context.cwd, env: hookEnv() });
        if (outcome.kind === "block") {
          if (!options.runAll) return done(outcome.reason);
          reasons.push(outcome.reason);
          continue;
        }
        if (outcome.kind === "failed") {
          failures.push(outcome.reason);
          if (options.failClosed) return done();
          context.warn?.(`${event} hook '${hook.command}' failed: ${outcome.reason}`);
          continue;
        }
        const output = parseHookOutput(outcome.stdout);
        if (output.kind === "invalid") {
          failures.push(output.reason);
          if (options.failClosed) return done();
          context.warn?.(`${event} hook '${hook.command}' failed: ${output.reason}`);
          continue;
        }
        if (output.kind === "text") {
          if (options.textIsContext) added.push(output.text);
          continue;
        }
        if (output.kind === "none") continue;
        const json = output.fields;
        if (json.systemMessage) context.warn?.(json.systemMessage);
        if (json.additionalContext) added.push(json.additionalContext);
        if (json.updatedInput) updatedInput = json.updatedInput;
        if (json.permissionDecision === "ask")
          ask = json.permissionDecisionReason ?? "a hook asks for a person's yes";
        const refusal =
          json.permissionDecision === "deny"
            ? (json.permissionDecisionReason ?? json.reason ?? "refused by a hook")
            : json.decision === "block"
              ? (json.reason ?? "refused by a hook")
              : json.continue === false
                ? (json.stopReason ?? "stopped by a hook")
                : undefined;
        if (refusal === undefined) continue;
        if (!options.runAll) return done(refusal);
        reasons.push(refusal);
      }
      return done();
    },
  };
}
