import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  createPlanProgress,
  isXzatomaError,
  planToPrompt,
  type AgentEvent,
  type AgentLimits,
  type AgentResult,
  type PlanProgress,
} from "@xzatoma/core";
import { conversationTitle } from "@xzatoma/runtime";
import { createPlanProgressTool } from "@xzatoma/tools";
import { pickExplicitFlags, type CommandOptionSource } from "../config/flag-mapping.js";
import { presentError } from "../error-table.js";
import {
  exitCodeForSignal,
  exitCodeForStop,
  STOP_SIGNALS,
  type StopSignal,
} from "../exit-codes.js";
import { parseMentions } from "../mentions/parse-mentions.js";
import { startTelemetry } from "../telemetry/index.js";
import { shouldUseColor } from "../render/color.js";
import { jsonErrorEvent } from "../render/json-error-event.js";
import { createJsonRenderer } from "../render/json-renderer.js";
import { createRunSummary } from "../render/run-summary.js";
import { createSpinner } from "../render/spinner.js";
import { toTerminalSafe } from "../render/terminal-safe.js";
import { createTextRenderer } from "../render/text-renderer.js";
import { runModes } from "../session/front-end-settings.js";
import { prepareSession } from "../session/prepare-session.js";
import { UsageError } from "../usage-error.js";

/** Options of `xzatoma run` as commander parsed them. */
export interface RunCommandOptions {
  readonly prompt?: string;
  /** The prompt given as words after `run`. */
  readonly words?: string;
  readonly plan?: string;
  readonly json?: boolean;
  /** No spinner, tool lines or summary on stderr: the answer, and errors. */
  readonly quiet?: boolean;
  /** Continue the newest saved conversation (`--continue`). */
  readonly continue?: boolean;
  /** Continue this saved conversation (`--resume ID`, an id or a unique prefix). */
  readonly resume?: string;
  readonly workspace?: string;
  readonly allowDangerous?: boolean;
  /** Offer subagent and parallel_subagent (also `agent.subagent.enabled`). */
  readonly subagents?: boolean;
  readonly config?: string;
  readonly storagePath?: string;
}

function describeStop(result: AgentResult, limits: AgentLimits): string | undefined {
  switch (result.stopReason) {
    case "max-turns":
      return `stopped: no final answer after ${limits.maxTurns} model requests (raise it with --max-turns).`;
    case "timeout":
      return `stopped: no final answer within ${Math.round(limits.timeoutMs / 1000)} s (raise it with --timeout).`;
    case "tool-budget":
      return `stopped: the budget of ${limits.maxToolCalls} tool calls is used up (raise it with --max-tool-calls).`;
    case "tool-calls-per-step":
      return `stopped: the model asked for more than ${limits.maxToolCallsPerStep} tool calls in one response.`;
    case "repeated-tool-calls":
      return `stopped: the model repeated the same tool call more than ${limits.maxRepeatedToolCalls} times in a row (a loop).`;
    case "quota":
      return result.quota
        ? `stopped: ${result.quota.message}: the whole tree stopped (raise ${result.quota.key}).`
        : "stopped: the run's shared quota (agent.quota: subagent executions, tokens or time across the tree) is used up.";
    case "length":
      return "stopped: the model's context window or output limit ran out; the text so far is above.";
    case "aborted":
      return "interrupted.";
    default:
      return undefined;
  }
}

async function taskFrom(options: RunCommandOptions): Promise<{
  text: string;
  maxTurns?: number;
  label: string;
  progress?: PlanProgress;
  /** Read from standard input: someone else may have written it (`git log -1 | xzatoma run`). */
  fromStdin?: true;
}> {
  if (options.plan) {
    let text: string;
    try {
      text = await readFile(options.plan, "utf8");
    } catch (error) {
      throw new UsageError(
        `--plan: cannot read '${options.plan}': ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
      );
    }
    // The plan's schemas (and zod) load only when there is a plan to read.
    const { parsePlan } = await import("./plan-parser.js");
    const plan = parsePlan(text, options.plan);
    return {
      text: `${planToPrompt(plan)}\nWhen you finish an instruction, call mark_instruction_done with its number.`,
      progress: createPlanProgress(plan),
      ...(plan.maxTurns ? { maxTurns: plan.maxTurns } : {}),
      label: `${path.basename(options.plan)}: ${plan.name} (${plan.instructions.length} instructions)`,
    };
  }
  const given = options.prompt ?? options.words;
  const fromStdin = given === "-" || (given === undefined && !process.stdin.isTTY);
  const prompt = fromStdin ? await readStandardInput() : (given ?? "");
  if (prompt.trim() === "")
    throw new UsageError(
      fromStdin
        ? "standard input held no prompt; give the prompt as words, --prompt TEXT or --plan FILE."
        : 'give a prompt (xzatoma run "TEXT", --prompt TEXT or - for standard input) or --plan FILE.',
    );
  return { text: prompt, label: prompt, ...(fromStdin ? { fromStdin: true as const } : {}) };
}

/** Reads the whole of standard input as text. */
async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * `xzatoma run --prompt TEXT | --plan FILE`: runs the agent once, without asking anyone.
 * With `--json`, a usage or configuration error that stops it from starting is an `error`
 * event on stdout too (see `render/json-error-event.ts`).
 */
export async function runCommand(
  options: RunCommandOptions,
  command: CommandOptionSource,
): Promise<number> {
  if (!options.json) return runOnce(options, command);
  try {
    return await runOnce(options, command);
  } catch (error) {
    const event = jsonErrorEvent(error);
    if (!event) throw error;
    process.stdout.write(event.line);
    throw error;
  }
}

async function runOnce(options: RunCommandOptions, command: CommandOptionSource): Promise<number> {
  if (options.prompt !== undefined && options.words !== undefined)
    throw new UsageError("give the prompt once: as words or with --prompt, not both.");
  if ((options.prompt !== undefined || options.words !== undefined) && options.plan)
    throw new UsageError("give either a prompt or --plan, not both.");
  if (options.continue && options.resume !== undefined)
    throw new UsageError("give --continue or --resume ID, not both.");
  const task = await taskFrom(options);
  const resume =
    options.resume !== undefined
      ? { resume: options.resume }
      : options.continue
        ? { resume: { latest: true as const } }
        : {};
  const stderr = (text: string) => process.stderr.write(text);
  const show: (event: AgentEvent) => void = options.json
    ? createJsonRenderer(process.stdout)
    : createTextRenderer({
        stdout: process.stdout,
        stderr: process.stderr,
        color: shouldUseColor(process.stderr, process.env),
        progress: !options.quiet,
        // Only in a terminal that takes escape sequences: NO_COLOR and TERM=dumb get plain lines.
        spinner: createSpinner(
          process.stderr,
          process.stderr.isTTY === true && shouldUseColor(process.stderr, process.env),
        ),
      });
  // The closing summary on stderr (not with --json or --quiet): how it ended, its size,
  // its conversation and the files the tools changed.
  const summary = createRunSummary();
  /** Calls refused because nobody could say yes: --allow-dangerous would have run them. */
  let unanswered = 0;
  const render = (event: AgentEvent) => {
    if (event.type === "approval-answered" && !event.approved) unanswered += 1;
    summary.onEvent(event);
    show(event);
  };
  // Off unless OTEL_EXPORTER_OTLP_* or XZATOMA_TELEMETRY asks; then the SDK loads here.
  const telemetry = await startTelemetry(process.env, {
    warn: (message) => process.stderr.write(`xzatoma: ${message}\n`),
  });
  let prepared: Awaited<ReturnType<typeof prepareSession>>;
  try {
    prepared = await prepareSession({
      ...(options.config ? { configPath: options.config } : {}),
      flags: pickExplicitFlags(command),
      ...(options.workspace ? { workspace: options.workspace } : {}),
      // Nobody is asked in `run`: no `ask`, so every call that needs a yes is refused.
      io: { warn: (message) => stderr(`xzatoma: ${toTerminalSafe(message)}\n`) },
      modes: (config) => runModes(config),
      ...(telemetry ? { telemetry } : {}),
      mentionUrlsConfirmed: options.allowDangerous === true,
      ...(options.subagents ? { subagents: true } : {}),
      history: { title: () => conversationTitle(task.label), ...resume },
      ...(task.maxTurns ? { limits: { maxTurns: task.maxTurns } } : {}),
      ...(task.progress ? { extraTools: [createPlanProgressTool(task.progress)] } : {}),
    });
  } catch (error) {
    await telemetry?.shutdown();
    throw error;
  }
  const { runtime } = prepared;
  runtime.subscribe(render);
  let prompt = task.text;
  const controller = new AbortController();
  // SIGTERM and SIGHUP (`kill`, `timeout`, a closed terminal) stop the run as Ctrl-C does:
  // it is recorded as interrupted, and the exit code is 128 + the signal's number.
  let stoppedBy: StopSignal | undefined;
  const onInterrupt = (signal: StopSignal) => {
    stoppedBy ??= signal;
    controller.abort();
  };
  for (const signal of STOP_SIGNALS) process.once(signal, onInterrupt);
  let result: AgentResult;
  try {
    // Only mentions the person typed are expanded: piped text (a commit message, a file) was
    // written by whoever wrote it, and an @mention there would load what they chose.
    if (task.fromStdin && !options.json && parseMentions(task.text).length > 0)
      stderr(
        "xzatoma: @mentions in standard input are not expanded; only those typed in the prompt are.\n",
      );
    if (!options.plan && !task.fromStdin) {
      const expanded = await prepared.mentions.load(task.text);
      prompt = expanded.prompt;
      if (!options.json) {
        for (const failure of expanded.failed)
          stderr(
            `xzatoma: could not load ${toTerminalSafe(`${failure.label}: ${failure.reason}`)}.\n`,
          );
      }
    }
    result = await runtime.run(prompt, { signal: controller.signal });
  } catch (error) {
    if (isXzatomaError(error)) {
      const presented = presentError(error);
      stderr(`${presented.lines.map((line) => toTerminalSafe(line)).join("\n")}\n`);
      return presented.exit;
    }
    throw error;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onInterrupt);
    await runtime.close();
    await telemetry?.shutdown();
  }
  if (!options.json && task.progress) stderr(`${toTerminalSafe(task.progress.summary())}\n`);
  if (!options.json && unanswered > 0) {
    stderr(
      `xzatoma: ${unanswered} call(s) needed a person's yes (network, places outside the workspace, secrets, protected paths, .git writes, or no sandbox) and were refused; review them and run them yourself, or use 'xzatoma chat' to be asked.\n`,
    );
  }
  if (!options.json) {
    if (result.stopReason === "error" && result.error) {
      stderr(
        `${presentError(result.error)
          .lines.map((line) => toTerminalSafe(line))
          .join("\n")}\n`,
      );
    } else if (result.stopReason !== "completed") {
      const message = describeStop(result, runtime.agent.limits);
      if (message) stderr(`xzatoma: ${message}\n`);
    }
  }
  // A run that got no answer at all (the server down, stopped at once) has nothing to sum up.
  if (!options.json && !options.quiet && (result.turns > 1 || result.usage.totalTokens > 0)) {
    const dim = shouldUseColor(process.stderr, process.env)
      ? (text: string) => `\x1b[2m${text}\x1b[22m`
      : (text: string) => text;
    stderr(dim(`${summary.lines(result, runtime.conversationId).join("\n")}\n`));
  }
  return result.stopReason === "aborted" && stoppedBy
    ? exitCodeForSignal(stoppedBy)
    : exitCodeForStop(result.stopReason);
}
