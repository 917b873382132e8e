import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { isLimitStop, isXzatomaError } from "@xzatoma/core";
import { watcherConfigSchema } from "@xzatoma/watcher";
import { createAgentRuntime, loadConfig } from "@xzatoma/runtime";
import { toTerminalSafe, toTerminalSafeJson, toTerminalSafeLine } from "@xzatoma/safety";
import { judgeEventFile, VERDICT_WORDS } from "./judge-event-file.js";
import { startTelemetry } from "./telemetry/index.js";

/**
 * `xzatoma-watcher run-event FILE --workspace DIR [--config FILE] [--json]`: runs the plan
 * an event file carries through the agent runtime, with only the privileges the
 * configuration gives (nobody is asked: a call that needs a yes is refused), and prints
 * the result. The event is judged as the service judges it (the configuration's watcher
 * section, else the service's defaults): one the service would filter, skip or dead-letter
 * is not run. Exit codes: 0 completed, 1 failure or not run, 2 usage, 3 a limit stopped
 * the run.
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
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    process.stderr.write(
      `error: ${toTerminalSafeLine(file)}: ${toTerminalSafe(error instanceof Error ? error.message : String(error))}\n`,
    );
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
  for (const warning of loaded.warnings)
    process.stderr.write(`xzatoma-watcher: ${toTerminalSafe(warning)}\n`);
  const config = loaded.config;
  // The service's judgement, so nothing runs here that the service would not run.
  const judgement = judgeEventFile(bytes, config.watcher ?? watcherConfigSchema.parse({}));
  if (judgement.verdict !== "run") {
    process.stderr.write(
      `error: ${toTerminalSafeLine(file)}: not run: the watcher would have ${VERDICT_WORDS[judgement.verdict]} it: ${toTerminalSafeLine(judgement.reason)}\n`,
    );
    return 1;
  }
  const { trigger: event, task } = judgement;
  const telemetry = await startTelemetry(process.env, {
    warn: (message) => process.stderr.write(`xzatoma-watcher: ${toTerminalSafe(message)}\n`),
  });
  if (telemetry?.metricsUrl)
    process.stderr.write(
      `xzatoma-watcher: metrics at ${toTerminalSafeLine(telemetry.metricsUrl)}\n`,
    );
  let runtime: Awaited<ReturnType<typeof createAgentRuntime>>;
  try {
    runtime = await createAgentRuntime(
      config,
      {
        warn: (message) => process.stderr.write(`xzatoma-watcher: ${toTerminalSafe(message)}\n`),
      },
      {
        workspace: path.resolve(values.workspace),
        // Nobody is present: an escalation is refused, as in the service.
        modes: { chatMode: "write", approvalPolicy: "never" },
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
    // The answer was written by a model that read the event: escaped, as every field is.
    process.stdout.write(
      values.json
        ? `${toTerminalSafeJson(summary)}\n`
        : `${result.stopReason}: ${toTerminalSafe(result.text)}\n`,
    );
    if (result.stopReason === "completed") return 0;
    return isLimitStop(result.stopReason) ? 3 : 1;
  } catch (error) {
    if (isXzatomaError(error)) {
      process.stderr.write(`error [${error.code}]: ${toTerminalSafe(error.message)}\n`);
      return 1;
    }
    throw error;
  } finally {
    await runtime.close();
    await telemetry?.shutdown();
  }
}
