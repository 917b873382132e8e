import {
  defaultAssessment,
  toolFailure,
  type Tool,
  type ToolAssessment,
  type ToolResult,
} from "@xzatoma/core";
import type { HookRunner } from "./hook-runner.js";

/** What the `PreToolUse` hooks made of one call's input. */
interface Prepared {
  readonly input: unknown;
  readonly context: readonly string[];
}

/**
 * What the hooks' judgement hands to the call's execution, in its facts: the hooks'
 * context for the model and the tool's own facts. A class, so that execution tells a
 * judgement made here from none.
 */
class HookFacts {
  constructor(
    readonly context: readonly string[],
    readonly tool: unknown,
  ) {}
}

function withNotes(result: ToolResult, notes: readonly string[]): ToolResult {
  if (notes.length === 0) return result;
  const text = notes.join("\n");
  return result.success
    ? { ...result, output: `${result.output}\n\n${text}` }
    : { ...result, error: `${result.error ?? ""}\n\n${text}` };
}

/**
 * Wraps a tool so its configured hooks run around each call.
 *
 * `PreToolUse` runs while the call is judged, before the safety policy and any approval:
 * exit 2, `decision: "block"` or `permissionDecision: "deny"` refuse the call with the hook's
 * reason for the model; a hook that fails, times out or prints invalid JSON refuses it too
 * (fail closed). `updatedInput` replaces the input, which is then validated and judged by the
 * tool's own policy as if the model had sent it, so a rewrite into something the policy
 * blocks is refused and one that needs a person asks one. `permissionDecision: "ask"` makes
 * the call need a person's explicit yes; `allow` is ignored. A hook can refuse what the
 * policy allows, never allow what it refuses.
 *
 * `PostToolUse` sees the result; its exit 2, `decision: "block"` with a `reason`, and
 * `additionalContext` add to what the model reads. The tool is returned unchanged when no
 * hook matches it.
 */
export function withHooks(tool: Tool, runner: HookRunner): Tool {
  const hasPre = runner.has("PreToolUse", tool.name);
  const hasPost = runner.has("PostToolUse", tool.name);
  if (!hasPre && !hasPost) return tool;
  const judge = async (input: unknown): Promise<ToolAssessment> =>
    (await tool.assess?.(input)) ?? defaultAssessment(tool);

  /** The hooks' verdict on `input`: a refusal, or the input to judge and run. */
  async function prepare(
    input: unknown,
  ): Promise<{ refused: string } | (Prepared & { ask?: string; rewritten: boolean })> {
    if (!hasPre) return { input, context: [], rewritten: false };
    const verdict = await runner.fire(
      "PreToolUse",
      tool.name,
      { tool_name: tool.name, tool_input: input },
      { failClosed: true },
    );
    if (verdict.blocked !== undefined)
      return { refused: `a PreToolUse hook refused it: ${verdict.blocked}` };
    if (verdict.failures.length > 0)
      return {
        refused: `a PreToolUse hook failed (${verdict.failures.join("; ")}), so the call does not run`,
      };
    if (verdict.updatedInput === undefined)
      return { input, context: verdict.context, rewritten: false, ...ask(verdict.ask) };
    // The tool's zod-free reader first (a valid rewrite loads no zod); zod decides otherwise.
    let read: ReturnType<NonNullable<typeof tool.readInput>> | undefined;
    try {
      read = tool.readInput?.(verdict.updatedInput);
    } catch {
      // A reader that fails is "not sure".
    }
    if (read?.ok)
      return { input: read.value, context: verdict.context, rewritten: true, ...ask(verdict.ask) };
    const parsed = (await tool.loadInputSchema()).safeParse(verdict.updatedInput);
    if (!parsed.success)
      return {
        refused: `a PreToolUse hook rewrote the input into one '${tool.name}' does not accept (${parsed.error.issues
          .map((issue) => `${issue.path.join(".") || "(input)"}: ${issue.message}`)
          .join("; ")})`,
      };
    return { input: parsed.data, context: verdict.context, rewritten: true, ...ask(verdict.ask) };
  }

  const assess = async (input: unknown): Promise<ToolAssessment> => {
    const outcome = await prepare(input);
    if ("refused" in outcome) return { verdict: "block", reason: outcome.refused };
    // The policy judges what will run: the rewritten input, never the original.
    let judged = await judge(outcome.input);
    if (outcome.rewritten) {
      judged = {
        ...judged,
        reason: `${judged.reason.trim().replace(/[.]*$/, "")} (the input as a PreToolUse hook rewrote it).`,
        summary: `${judged.summary ?? JSON.stringify(outcome.input)} (rewritten by a PreToolUse hook)`,
      };
    }
    if (outcome.ask !== undefined && judged.verdict !== "block") {
      judged = {
        ...judged,
        verdict: "confirm",
        requiresPerson: true,
        reason: `${judged.reason.trim().replace(/[.]*$/, "")}; a PreToolUse hook asks for a person's yes: ${outcome.ask}`,
      };
    }
    return {
      ...judged,
      facts: new HookFacts(outcome.context, judged.facts),
      // The registry asks the person, audits and executes with the rewritten input: the
      // question shows what will run, not what the model sent.
      ...(outcome.rewritten && judged.input === undefined ? { input: outcome.input } : {}),
    };
  };

  return {
    ...tool,
    assess,
    async execute(input, execution) {
      const judged = execution.assessment;
      let context: readonly string[] = [];
      let toolExecution = execution;
      if (judged?.facts instanceof HookFacts) {
        context = judged.facts.context;
        // The tool sees its own judgement's facts, as if no hook had been in between.
        toolExecution = { ...execution, assessment: { ...judged, facts: judged.facts.tool } };
      } else if (hasPre) {
        // Executed without being judged here first (not through a registry): the hooks run
        // now, and a rewrite, which nothing could judge again, is refused.
        const outcome = await prepare(input);
        if ("refused" in outcome) return toolFailure(`Refused: ${outcome.refused}.`);
        if (outcome.rewritten || outcome.ask !== undefined)
          return toolFailure(
            "Refused: a PreToolUse hook changed the call, and it could not be judged again.",
          );
        context = outcome.context;
      }
      // The registry passes the input the judgement ran on: a hook's rewrite, when there was one.
      const result = await tool.execute(input, toolExecution);
      const notes = context.map((text) => `PreToolUse hook: ${text}`);
      if (hasPost) {
        const verdict = await runner.fire(
          "PostToolUse",
          tool.name,
          {
            tool_name: tool.name,
            tool_input: input,
            tool_use_id: execution.toolCallId,
            tool_response: {
              success: result.success,
              output: result.output,
              ...(result.error ? { error: result.error } : {}),
            },
          },
          { runAll: true },
        );
        if (verdict.blocked !== undefined) notes.push(`PostToolUse hook: ${verdict.blocked}`);
        for (const text of verdict.context) notes.push(`PostToolUse hook: ${text}`);
      }
      return withNotes(result, notes);
    },
  };
}

function ask(reason: string | undefined): { ask?: string } {
  return reason === undefined ? {} : { ask: reason };
}
