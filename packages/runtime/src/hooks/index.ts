export { hooksConfigSchema, type HookCommand, type HooksConfig } from "./hooks-config.js";
export { runHook, type HookOutcome } from "./run-hook.js";
export { withHooks, type HookContext } from "./with-hooks.js";
