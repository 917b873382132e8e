import { statSync } from "node:fs";
import path from "node:path";
import {
  Agent,
  isLimitStop,
  isXzatomaError,
  type AgentEvent,
  type AgentResult,
} from "@xzatoma/core";
import { createOllamaModel } from "@xzatoma/providers";
import { createBuiltinTools, createWorkspaceContext } from "@xzatoma/tools";
import { exitCodeForStop, ExitCode } from "../exit-codes.js";
import { createJsonRenderer } from "../render/json-renderer.js";
import { createTextRenderer } from "../render/text-renderer.js";
import { createSystemPrompt } from "../system-prompt.js";
import { UsageError } from "../usage-error.js";

/** Options of `xzatoma run` as commander parsed them. */
export interface RunCommandOptions {
  readonly prompt?: string;
  readonly json?: boolean;
  readonly provider?: string;
  readonly model?: string;
  readonly host?: string;
  readonly workspace?: string;
  readonly maxTurns?: number;
  readonly maxToolCalls?: number;
  readonly timeout?: number;
}

const SUPPORTED_PROVIDERS = ["ollama"];

function resolveWorkspace(option: string | undefined): string {
  const workspace = path.resolve(option ?? process.cwd());
  let isDirectory = false;
  try {
    isDirectory = statSync(workspace).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory)
    throw new UsageError(`--workspace: '${option ?? workspace}' is not a directory.`);
  return workspace;
}

/** What a stop by a limit means, in words, with the flag that raises the limit. */
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

/** `xzatoma run --prompt TEXT`: runs the agent once and prints the answer or the event stream. */
export async function runCommand(options: RunCommandOptions): Promise<number> {
  const prompt = options.prompt ?? "";
  if (prompt.trim() === "") throw new UsageError("--prompt: the prompt is empty.");
  const provider = options.provider ?? "ollama";
  if (!SUPPORTED_PROVIDERS.includes(provider)) {
    throw new UsageError(
      `--provider: unknown provider '${provider}'. Supported: ${SUPPORTED_PROVIDERS.join(", ")}.`,
    );
  }
  const workspace = createWorkspaceContext({ root: resolveWorkspace(options.workspace) });
  const tools = createBuiltinTools(workspace);
  const model = createOllamaModel({
    ...(options.model ? { model: options.model } : {}),
    ...(options.host ? { host: options.host } : {}),
  });
  const agent = new Agent({
    model,
    tools,
    systemPrompt: createSystemPrompt({
      workspace: workspace.root,
      toolNames: tools.map((tool) => tool.name),
    }),
    limits: {
      ...(options.maxTurns ? { maxTurns: options.maxTurns } : {}),
      ...(options.maxToolCalls ? { maxToolCalls: options.maxToolCalls } : {}),
      ...(options.timeout ? { timeoutMs: options.timeout * 1000 } : {}),
    },
  });

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
    result = await agent.run(prompt, { signal: controller.signal, onEvent: render });
  } catch (error) {
    if (isXzatomaError(error)) {
      process.stderr.write(`error [${error.code}]: ${error.message}\n`);
      return ExitCode.failure;
    }
    throw error;
  } finally {
    process.off("SIGINT", onInterrupt);
  }

  if (!options.json) {
    if (result.stopReason === "error" && result.error) {
      process.stderr.write(`error [${result.error.code}]: ${result.error.message}\n`);
    } else if (result.stopReason !== "completed" || isLimitStop(result.stopReason)) {
      const message = describeStop(result, agent);
      if (message) process.stderr.write(`xzatoma: ${message}\n`);
    }
  }
  return exitCodeForStop(result.stopReason);
}
