import { toolFailure, type Tool } from "@xzatoma/core";
import type { HooksConfig } from "./hooks-config.js";
import { runHook } from "./run-hook.js";

/** Where hooks run and what they are told. */
export interface HookContext {
  readonly hooks: HooksConfig;
  /** The hooks' working directory: XZatoma's data directory, never the workspace. */
  readonly cwd: string;
  readonly workspace: string;
  readonly env: NodeJS.ProcessEnv;
  readonly sessionId: () => string | undefined;
}

function matching(entries: HooksConfig["PreToolUse"], toolName: string) {
  return entries
    .filter((entry) => entry.matcher === "" || new RegExp(`^(?:${entry.matcher})$`).test(toolName))
    .flatMap((entry) => entry.hooks);
}

/**
 * Wraps a tool so its configured hooks run around each call. `PreToolUse` runs after the
 * call was judged and approved and before it runs: exit 2 refuses it with the hook's
 * standard error as the model's reason, and a hook that fails or times out refuses it too
 * (fail closed); exit 0 lets it run as judged. A hook can refuse what the policy allows,
 * never allow what it refuses. `PostToolUse` sees the result; its exit 2 adds its standard
 * error to what the model reads. The tool is returned unchanged when no hook matches it.
 */
export function withHooks(tool: Tool, context: HookContext): Tool {
  const pre = matching(context.hooks.PreToolUse, tool.name);
  const post = matching(context.hooks.PostToolUse, tool.name);
  if (pre.length === 0 && post.length === 0) return tool;
  const base = (event: string, input: unknown) => ({
    hook_event_name: event,
    session_id: context.sessionId() ?? "",
    cwd: context.workspace,
    tool_name: tool.name,
    tool_input: input,
  });
  const options = {
    cwd: context.cwd,
    env: { ...context.env, XZATOMA_PROJECT_DIR: context.workspace },
  };
  const assess = tool.assess;
  return {
    ...tool,
    ...(assess ? { assess: (input: unknown) => assess.call(tool, input) } : {}),
    get inputSchema() {
      return tool.inputSchema;
    },
    async execute(input, execution) {
      for (const hook of pre) {
        const outcome = await runHook(hook, base("PreToolUse", input), options);
        if (outcome.kind === "block")
          return toolFailure(`Refused by a PreToolUse hook: ${outcome.reason}`);
        if (outcome.kind === "failed") {
          return toolFailure(
            `Refused: a PreToolUse hook failed (${outcome.reason}), so the call did not run.`,
          );
        }
      }
      const result = await tool.execute(input, execution);
      const notes: string[] = [];
      for (const hook of post) {
        const outcome = await runHook(
          hook,
          {
            ...base("PostToolUse", input),
            tool_response: {
              success: result.success,
              output: result.output,
              ...(result.error ? { error: result.error } : {}),
            },
          },
          options,
        );
        if (outcome.kind === "block") notes.push(`PostToolUse hook: ${outcome.reason}`);
      }
      if (notes.length === 0) return result;
      return result.success
        ? { ...result, output: `${result.output}\n\n${notes.join("\n")}` }
        : { ...result, error: `${result.error ?? ""}\n\n${notes.join("\n")}` };
    },
  };
}
