import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  Agent,
  createPlanProgress,
  isXzatomaError,
  parsePlan,
  planToPrompt,
  type AgentEvent,
  type AgentResult,
  type PlanProgress,
} from "@xzatoma/core";
import { createPlanProgressTool } from "@xzatoma/tools";
import { isToolAvailable } from "@xzatoma/safety";
import { pickExplicitFlags, type CommandOptionSource } from "../config/index.js";
import { exitCodeForStop, ExitCode } from "../exit-codes.js";
import { createHistoryRecorder, titleFrom } from "../history/history-recorder.js";
import { createJsonRenderer } from "../render/json-renderer.js";
import { toTerminalSafe } from "../render/terminal-safe.js";
import { createTextRenderer } from "../render/text-renderer.js";
import { createApprovalHandler } from "../session/approval-handler.js";
import { createAuditSink } from "@xzatoma/runtime";
import { contextOptions, toAgentLimits } from "../session/context-options.js";
import { prepareSession } from "../session/prepare-session.js";
import type { SessionModes } from "@xzatoma/runtime";
import { UsageError } from "../usage-error.js";
import { openUserHistory } from "./history.js";

/** Options of `xzatoma run` as commander parsed them. */
export interface RunCommandOptions {
  readonly prompt?: string;
  readonly plan?: string;
  readonly json?: boolean;
  readonly workspace?: string;
  readonly allowDangerous?: boolean;
  readonly config?: string;
  readonly storagePath?: string;
}

function describeStop(result: AgentResult, agent: Agent): string | undefined {
  switch (result.stopReason) {
    case "max-turns":
      return `stopped: no final answer after ${agent.limits.maxTurns} model requests (raise it with --max-turns).`;
    case "timeout":
      return `stopped: no final answer within ${Math.round(agent.limits.timeoutMs / 1000)} s (raise it with --timeout).`;
    case "tool-budget":
      return `stopped: the budget of ${agent.limits.maxToolCalls} tool calls is used up (raise it with --max-tool-calls).`;
    case "tool-calls-per-step":
      return `stopped: the model asked for more than ${agent.limits.maxToolCallsPerStep} tool calls in one response.`;
    case "consecutive-tool-steps":
      return `stopped: the model called tools ${agent.limits.maxConsecutiveToolSteps} times in a row without saying anything.`;
    case "aborted":
      return "interrupted.";
    default:
      return undefined;
  }
}

async function taskFrom(
  options: RunCommandOptions,
): Promise<{ text: string; maxTurns?: number; label: string; progress?: PlanProgress }> {
  if (options.plan) {
    let text: string;
    try {
      text = await readFile(options.plan, "utf8");
    } catch (error) {
      throw new UsageError(
        `--plan: cannot read '${options.plan}': ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
      );
    }
    const plan = parsePlan(text, options.plan);
    return {
      text: `${planToPrompt(plan)}\nWhen you finish an instruction, call mark_instruction_done with its number.`,
      progress: createPlanProgress(plan),
      ...(plan.maxTurns ? { maxTurns: plan.maxTurns } : {}),
      label: `${path.basename(options.plan)}: ${plan.name} (${plan.instructions.length} instructions)`,
    };
  }
  const prompt = options.prompt ?? "";
  if (prompt.trim() === "") throw new UsageError("give --prompt TEXT or --plan FILE.");
  return { text: prompt, label: prompt };
}

/** `xzatoma run --prompt TEXT | --plan FILE`: runs the agent once, without asking anyone. */
export async function runCommand(
  options: RunCommandOptions,
  command: CommandOptionSource,
): Promise<number> {
  if (options.prompt && options.plan)
    throw new UsageError("give either --prompt or --plan, not both.");
  const task = await taskFrom(options);
  const stderr = (text: string) => process.stderr.write(text);
  const prepared = await prepareSession({
    ...(options.config ? { configPath: options.config } : {}),
    flags: pickExplicitFlags(command),
    ...(options.workspace ? { workspace: options.workspace } : {}),
    warn: (message) => stderr(`xzatoma: ${message}\n`),
    mentionUrlsConfirmed: options.allowDangerous === true,
  });
  const { config } = prepared.loaded;
  const modes: SessionModes = {
    chatMode: config.agent.chat.default_mode,
    safetyMode: "safe",
    executionMode: options.allowDangerous ? "full" : "restricted",
  };
  const limits = {
    ...toAgentLimits(config),
    ...(task.maxTurns ? { maxTurns: task.maxTurns } : {}),
  };
  let prompt = task.text;
  if (options.prompt) {
    const expanded = await prepared.mentions.load(task.text);
    prompt = expanded.prompt;
    if (!options.json) {
      for (const failure of expanded.failed)
        stderr(
          `xzatoma: could not load ${toTerminalSafe(`${failure.label}: ${failure.reason}`)}\n`,
        );
    }
  }
  const agent = new Agent({
    model: prepared.models.createModel(prepared.models.model),
    tools: [
      ...prepared.environment.tools.filter((tool) => isToolAvailable(modes.chatMode, tool.access)),
      ...(task.progress ? [createPlanProgressTool(task.progress)] : []),
    ],
    systemPrompt: prepared.systemPrompt,
    limits,
    context: contextOptions(config, prepared.models.contextWindow(prepared.models.model)),
    approve: createApprovalHandler(modes),
    audit: createAuditSink(prepared.environment.auditLog, prepared.environment.workspace.root),
  });
  const history = config.persistence.enabled
    ? openUserHistory(config.persistence.db_path)
    : undefined;
  const recorder = history
    ? createHistoryRecorder(history, { title: () => titleFrom(task.label) })
    : undefined;

  const render: (event: AgentEvent) => void = options.json
    ? createJsonRenderer(process.stdout)
    : createTextRenderer({
        stdout: process.stdout,
        stderr: process.stderr,
        color: Boolean(process.stderr.isTTY),
      });
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  process.once("SIGINT", onInterrupt);
  let result: AgentResult;
  try {
    const state = {
      mode: modes.chatMode,
      safety: modes.safetyMode,
      provider: prepared.models.provider,
      model: prepared.models.model,
    };
    let usageSoFar = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    result = await agent.run(prompt, {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === "usage") usageSoFar = event.totals;
        // Each finished turn is written before the next request: a crash loses at most one turn.
        if (event.type === "turn-started" && event.turn > 1) {
          recorder?.progress(agent.conversation.entries(), usageSoFar, event.turn - 1, state);
        }
        render(event);
      },
    });
    recorder?.finish(agent.conversation.entries(), result, state);
  } catch (error) {
    if (isXzatomaError(error)) {
      stderr(`error [${error.code}]: ${toTerminalSafe(error.message)}\n`);
      return ExitCode.failure;
    }
    throw error;
  } finally {
    process.off("SIGINT", onInterrupt);
    history?.close();
    await prepared.environment.close();
  }
  if (!options.json && task.progress) stderr(`${toTerminalSafe(task.progress.summary())}\n`);
  if (!options.json) {
    if (result.stopReason === "error" && result.error) {
      stderr(`error [${result.error.code}]: ${toTerminalSafe(result.error.message)}\n`);
    } else if (result.stopReason !== "completed") {
      const message = describeStop(result, agent);
      if (message) stderr(`xzatoma: ${message}\n`);
    }
  }
  return exitCodeForStop(result.stopReason);
}
