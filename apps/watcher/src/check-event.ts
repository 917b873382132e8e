import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { toTerminalSafe, toTerminalSafeJson, toTerminalSafeLine } from "@xzatoma/safety";
import { watcherConfigSchema, type WatcherConfig } from "@xzatoma/watcher";
import { judgeEventFile, VERDICT_WORDS } from "./judge-event-file.js";
import { loadWatcherConfigFile } from "./watcher-config-file.js";

/**
 * `xzatoma-watcher check-event FILE [--config FILE] [filter flags] [--json]`: what the service
 * would do with the event in FILE, by the service's own judgement: run it (exit 0), or filter,
 * skip or dead-letter it, with the reason (exit 1). The watcher section comes from `--config`
 * (or `XZATOMA_CONFIG`), else the service's defaults; the filter flags replace its filters.
 * Exit 2 for a usage error (a flag, a filter that is not valid).
 */
export async function checkEvent(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      config: { type: "string", short: "c" },
      "success-only": { type: "boolean" },
      "event-type": { type: "string", multiple: true },
      "source-pattern": { type: "string" },
      json: { type: "boolean" },
    },
  });
  const file = positionals[0];
  if (!file || positionals.length > 1) {
    process.stderr.write("error: check-event takes exactly one FILE\n");
    return 2;
  }
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    process.stderr.write(
      `error: cannot read '${toTerminalSafeLine(file)}': ${toTerminalSafe((error as Error).message)}\n`,
    );
    return 1;
  }
  let watcher: WatcherConfig;
  if (values.config !== undefined || env["XZATOMA_CONFIG"]) {
    const loaded = await loadWatcherConfigFile("check-event", values.config, env);
    if (!loaded) return 2;
    watcher = loaded.watcher;
  } else {
    watcher = watcherConfigSchema.parse({});
  }
  watcher = {
    ...watcher,
    filters: {
      ...watcher.filters,
      ...(values["success-only"] ? { success_only: true } : {}),
      ...(values["event-type"] ? { event_types: values["event-type"] } : {}),
      ...(values["source-pattern"] !== undefined
        ? { source_pattern: values["source-pattern"] }
        : {}),
    },
  };
  let judgement;
  try {
    judgement = judgeEventFile(bytes, watcher);
  } catch (error) {
    // A filter or match that is not valid: the service would refuse to start.
    process.stderr.write(`error: ${toTerminalSafe((error as Error).message)}\n`);
    return 2;
  }
  const accepted = judgement.verdict === "run";
  const type = judgement.trigger?.type;
  const reason = judgement.verdict === "run" ? undefined : judgement.reason;
  if (values.json) {
    // The type, id, source and reason come from the event: escaped, as JSON and as text.
    process.stdout.write(
      `${toTerminalSafeJson({
        file,
        accepted,
        verdict: judgement.verdict,
        ...(reason !== undefined ? { reason } : {}),
        ...(type !== undefined ? { type } : {}),
        ...(judgement.trigger
          ? { id: judgement.trigger.id, source: judgement.trigger.source }
          : {}),
        ...(judgement.verdict === "run"
          ? { plan: judgement.task.isPlan ? (judgement.task.plan.name ?? "(unnamed)") : "(prompt)" }
          : {}),
      })}\n`,
    );
  } else {
    process.stdout.write(
      accepted
        ? `accepted: ${toTerminalSafeLine(file)} (${toTerminalSafeLine(type ?? "")})\n`
        : `${VERDICT_WORDS[judgement.verdict]}: ${toTerminalSafeLine(file)}: ${toTerminalSafeLine(reason ?? "")}\n`,
    );
  }
  return accepted ? 0 : 1;
}
