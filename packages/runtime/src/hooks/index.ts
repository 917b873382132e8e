export {
  HOOK_EVENTS,
  matchingHooks,
  NO_HOOKS,
  type HookCommand,
  type HookEventName,
  type HooksConfig,
} from "./hooks-config.js";
export { parseHookOutput, type HookJsonFields, type HookOutput } from "./hook-output.js";
export {
  createHookRunner,
  type FireOptions,
  type HookContext,
  type HookRunner,
  type HookVerdict,
} from "./hook-runner.js";
export { runHook, type HookOutcome } from "./run-hook.js";
export {
  createSessionHooks,
  MAX_STOP_CONTINUATIONS,
  runUntilStopHooksAgree,
  withPromptContext,
  type SessionEndReason,
  type SessionHooks,
  type SessionStartSource,
  type SubagentHookInfo,
} from "./session-hooks.js";
export { withHooks } from "./with-hooks.js";
