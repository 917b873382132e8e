import path from "node:path";
import { startWatcher } from "@xzatoma/watcher/runtime";
import type { CommandOptionSource } from "../config/flag-mapping.js";
import { toTerminalSafe } from "../render/terminal-safe.js";
import { version } from "../version.js";
import { loadUserConfig } from "./load-user-config.js";

/** Options of `xzatoma watch`. */
export interface WatchOptions {
  readonly config?: string;
  readonly workspace?: string;
  readonly dryRun?: boolean;
}

/**
 * `xzatoma watch`: the watcher service in the foreground, as `xzatoma-watcher run` runs it
 * (the same assembly from `@xzatoma/watcher/runtime`): consumes the configured topic, runs
 * each event's plan and publishes its result, until Ctrl-C or SIGTERM. Exit 0 after a signal,
 * 1 when the consumer fails for good.
 */
export async function watchCommand(
  options: WatchOptions,
  command: CommandOptionSource,
): Promise<number> {
  const loaded = await loadUserConfig(options, command);
  for (const warning of loaded.warnings)
    process.stderr.write(`xzatoma: ${toTerminalSafe(warning)}\n`);
  let fatal: Error | undefined;
  let wake: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
    wake = resolve;
  });
  const watcher = await startWatcher({
    config: loaded.config,
    // Absolute, as `xzatoma-watcher run` makes it: runs must not depend on a later cwd.
    workspace: path.resolve(options.workspace ?? process.cwd()),
    // Results reported to XZepr carry the version of the command that ran them.
    release: version,
    // The file read, or the one a later start would read: no tool may create it either.
    configPath: loaded.configPath,
    ...(options.dryRun ? { dryRun: true } : {}),
    onFatal(error) {
      fatal = error;
      wake();
    },
  });
  await stopped;
  await watcher.close();
  if (fatal) {
    process.stderr.write(`xzatoma: the Kafka consumer stopped: ${toTerminalSafe(fatal.message)}\n`);
    return 1;
  }
  return 0;
}
