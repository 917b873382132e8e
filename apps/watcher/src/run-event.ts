import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { isLimitStop, isXzatomaError } from "@xzatoma/core";
import { extractXzeprPlan, planTaskOf, promptTaskOf } from "@xzatoma/watcher";
import { createAgentRuntime, executionModeOf, loadConfig } from "@xzatoma/runtime";
import { parseXzeprEvent, type XzeprEvent } from "@xzatoma/xzepr";
import { startTelemetry } from "./telemetry/index.js";

/** The prompt for a plan's text: a plan that parses is run as a plan, anything else as text. */
function promptFor(text: string, source: string): { prompt: string; maxTurns?: number } {
  try {
    const task = planTaskOf(text, source);
    return { prompt: task.prompt, ...(task.maxTurns ? { maxTurns: task.maxTurns } : {}) };
  } catch {
    return { prompt: promptTaskOf(text).prompt };
  }
}

/**
 * `xzatoma-watcher run-event FILE --workspace DIR [--config FILE] [--json]`: runs the plan
 * an event file carries through the agent runtime, with only the privileges the
 * configuration gives (nobody is asked: a call that needs a yes is refused), and prints
 * the result. Exit codes: 0 completed, 1 failure, 2 usage, 3 a limit stopped the run.
 */
export async function runEvent(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      workspace: { type: "string" },
      config: { type: "string" },
      json: { type: "boolean" },
    },
  });
  const file = positionals[0];
  if (!file || positionals.length > 1) {
    process.stderr.write("error: run-event takes exactly one FILE\n");
    return 2;
  }
  if (!values.workspace) {
    process.stderr.write("error: run-event needs --workspace DIR (where the plan runs)\n");
    return 2;
  }
  let event: XzeprEvent;
  try {
    event = parseXzeprEvent(await readFile(file, "utf8"));
  } catch (error) {
    process.stderr.write(
      `error: ${file}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  const planText = extractXzeprPlan(event);
  if (planText === undefined) {
    process.stderr.write(`error: ${file}: the event carries no plan\n`);
    return 1;
  }
  // The configuration is loaded as the CLI and `xzatoma-watcher run` load it: the file
  // (--config, XZATOMA_CONFIG or the default path), then the environment. A file that is
  // missing, unreadable or invalid, or that holds a credential, is an error naming it.
  const loaded = await loadConfig({
    ...(values.config ? { configPath: values.config } : {}),
    configFlag: "--config",
    env: process.env,
    homeDir: homedir(),
  });
  for (const warning of loaded.warnings) process.stderr.write(`xzatoma-watcher: ${warning}\n`);
  const config = loaded.config;
  const task = promptFor(planText, `${path.basename(file)}#plan`);
  const configured = executionModeOf(config.agent.terminal.default_mode);
  const telemetry = await startTelemetry(process.env, {
    warn: (message) => process.stderr.write(`xzatoma-watcher: ${message}\n`),
  });
  if (telemetry?.metricsUrl)
    process.stderr.write(`xzatoma-watcher: metrics at ${telemetry.metricsUrl}\n`);
  let runtime: Awaited<ReturnType<typeof createAgentRuntime>>;
  try {
    runtime = await createAgentRuntime(
      config,
      {
        warn: (message) => process.stderr.write(`xzatoma-watcher: ${message}\n`),
      },
      {
        workspace: path.resolve(values.workspace),
        // Nobody is present: an interactive configuration runs as restricted autonomous.
        modes: {
          chatMode: "write",
          safetyMode: "safe",
          executionMode: configured === "interactive" ? "restricted" : configured,
        },
        configPath: loaded.configPath,
        ...(task.maxTurns ? { limits: { maxTurns: task.maxTurns } } : {}),
        history: { title: () => `event ${event.id}: ${event.type}` },
        ...(telemetry ? { telemetry } : {}),
      },
    );
  } catch (error) {
    await telemetry?.shutdown();
    throw error;
  }
  try {
    const result = await runtime.run(task.prompt);
    const summary = {
      event: event.id,
      type: event.type,
      stopReason: result.stopReason,
      text: result.text,
      turns: result.turns,
      toolCalls: result.toolCalls,
      usage: result.usage,
      ...(runtime.conversationId ? { conversationId: runtime.conversationId } : {}),
      ...(result.error ? { error: result.error } : {}),
    };
    process.stdout.write(
      values.json ? `${JSON.stringify(summary)}\n` : `${result.stopReason}: ${result.text}\n`,
    );
    if (result.stopReason === "completed") return 0;
    return isLimitStop(result.stopReason) ? 3 : 1;
  } catch (error) {
    if (isXzatomaError(error)) {
      process.stderr.write(`error [${error.code}]: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await runtime.close();
    await telemetry?.shutdown();
  }
}
