import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  isXzatomaError,
  type AgentEvent,
  type AgentEventError,
  type AgentLimits,
} from "@xzatoma/core";
import type { Provider } from "@xzatoma/providers";
import { createAgentRuntime, type RuntimeConfig } from "@xzatoma/runtime";
import { needsTool, unmetExpectations } from "./check-expectations.js";
import { classifyFailure, type ObservedCall } from "./classify-failure.js";
import type { Failure } from "./failure-kind.js";
import type { EvalCase } from "./suite-schema.js";

/** One run of one case. */
export interface CaseRun {
  /** 1 for the first repetition. */
  readonly attempt: number;
  readonly passed: boolean;
  /** Model requests. */
  readonly turns: number;
  readonly toolCalls: number;
  readonly tokens: { readonly input: number; readonly output: number; readonly total: number };
  /** Wall time of the case: workspace, runtime, run, checks. */
  readonly durationMs: number;
  /** The final answer (the last text, when the run stopped early). */
  readonly answer: string;
  /** Why it failed; absent when it passed. */
  readonly failure?: Failure;
}

/** What every case of an eval shares. */
export interface CaseRunContext {
  /** The resolved configuration; each case gets its own data directory inside it. */
  readonly config: RuntimeConfig;
  /** One provider for every case, so a local model loads once. */
  readonly provider: Provider;
  /** The configuration file in use, which no tool may write. */
  readonly configPath?: string;
  readonly warn: (message: string) => void;
  /** Keep each case's directory (workspace and data) instead of deleting it. */
  readonly keep?: boolean;
  /** Stops the run in flight (Ctrl-C); its directory is still removed. */
  readonly signal?: AbortSignal;
}

function limitsOf(evalCase: EvalCase): Partial<AgentLimits> {
  const { max_turns, max_tool_calls, timeout_seconds } = evalCase.limits;
  return {
    ...(max_turns === undefined ? {} : { maxTurns: max_turns }),
    ...(max_tool_calls === undefined ? {} : { maxToolCalls: max_tool_calls }),
    ...(timeout_seconds === undefined ? {} : { timeoutMs: Math.round(timeout_seconds * 1000) }),
  };
}

function asEventError(error: unknown): AgentEventError {
  if (isXzatomaError(error)) return { code: error.code, message: error.message };
  return { code: "UNEXPECTED", message: error instanceof Error ? error.message : String(error) };
}

/** At most `max` characters, ending in `…` when cut. */
function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Creates the case's files in a fresh workspace. */
async function createWorkspace(root: string, files: Record<string, string>): Promise<void> {
  await mkdir(root, { recursive: true });
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}

/**
 * Runs one case once: a fresh workspace and data directory, the runtime `xzatoma run` uses
 * (approval policy `never`, the sandbox and the command policy as configured), the prompt
 * sent as written, then the checks. Never throws for what the model or XZatoma does: a
 * failure is reported with its kind.
 */
export async function runCase(
  evalCase: EvalCase,
  context: CaseRunContext,
  attempt: number,
): Promise<CaseRun> {
  const startedAt = performance.now();
  // A neutral name: the model sees the workspace's absolute path, and a case id in it (say
  // "says-a-missing-file-is-missing") would let an answer that only repeats the path pass
  // the case's checks. A kept directory names its case in a file beside the workspace.
  const base = await realpath(await mkdtemp(path.join(tmpdir(), "xzatoma-eval-")));
  if (context.keep)
    await writeFile(path.join(base, "case.txt"), `${evalCase.id} attempt ${attempt}\n`);
  const workspace = path.join(base, "workspace");
  const dataDir = path.join(base, "data");
  const calls = new Map<string, { name: string } & Partial<ObservedCall>>();
  let tools: readonly string[] = [];
  const observe = (event: AgentEvent) => {
    if (event.type === "run-started" && tools.length === 0) tools = event.tools;
    else if (event.type === "tool-call-requested")
      calls.set(event.toolCallId, { name: event.toolName });
    else if (event.type === "tool-result") {
      const call = calls.get(event.toolCallId) ?? { name: event.toolName };
      calls.set(event.toolCallId, {
        ...call,
        success: event.result.success,
        invalidInput: event.result.metadata["invalidInput"] === true,
        refused: event.result.metadata["refused"] === true,
        ...(event.result.error === undefined ? {} : { error: event.result.error }),
      });
    }
  };
  let stopReason: CaseRunOutcome["stopReason"];
  let error: AgentEventError | undefined;
  let answer = "";
  let turns = 0;
  let tokens = { input: 0, output: 0, total: 0 };
  try {
    await createWorkspace(workspace, evalCase.workspace);
    await mkdir(dataDir, { recursive: true });
    const config: RuntimeConfig = {
      ...context.config,
      persistence: {
        ...context.config.persistence,
        data_dir: dataDir,
        db_path: path.join(dataDir, "history.db"),
      },
      logging: {},
    };
    const runtime = await createAgentRuntime(
      config,
      { warn: context.warn },
      {
        workspace,
        modes: { chatMode: evalCase.mode, approvalPolicy: "never" },
        provider: context.provider,
        history: false,
        limits: limitsOf(evalCase),
        ...(evalCase.subagents ? { subagents: true } : {}),
        ...(context.configPath ? { configPath: context.configPath } : {}),
      },
    );
    runtime.subscribe(observe);
    try {
      const result = await runtime.run(
        evalCase.prompt,
        context.signal ? { signal: context.signal } : {},
      );
      stopReason = result.stopReason;
      error = result.error;
      answer = result.text;
      turns = result.turns;
      tokens = {
        input: result.usage.inputTokens,
        output: result.usage.outputTokens,
        total: result.usage.totalTokens,
      };
    } finally {
      await runtime.close();
    }
  } catch (thrown) {
    stopReason = undefined;
    error = asEventError(thrown);
  }
  const observed: ObservedCall[] = [...calls.values()].map((call) => ({
    name: call.name,
    known: tools.includes(call.name),
    success: call.success ?? false,
    invalidInput: call.invalidInput ?? false,
    refused: call.refused ?? false,
    ...(call.error === undefined ? {} : { error: call.error }),
  }));
  const unmet =
    stopReason === "completed"
      ? await unmetExpectations(evalCase, {
          workspace,
          answer,
          toolsCalled: observed.map((call) => call.name),
        })
      : [];
  const failure = classifyFailure({
    ...(stopReason === undefined ? {} : { stopReason }),
    ...(error === undefined ? {} : { error }),
    answer,
    calls: observed,
    tools,
    unmet,
    needsTool: needsTool(evalCase),
  });
  if (!context.keep) await rm(base, { recursive: true, force: true });
  return {
    attempt,
    passed: failure === undefined,
    turns,
    toolCalls: observed.length,
    tokens,
    durationMs: Math.round(performance.now() - startedAt),
    answer: cut(answer, 2000),
    ...(failure ? { failure: { kind: failure.kind, detail: cut(failure.detail, 500) } } : {}),
  };
}

type CaseRunOutcome = Parameters<typeof classifyFailure>[0];
