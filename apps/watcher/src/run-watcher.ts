import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import { startWatcher } from "@xzatoma/runtime/watcher";
import { serveHealth, type HealthServer } from "./health-server.js";
import { startTelemetry } from "./telemetry/index.js";
import { loadWatcherConfigFile } from "./watcher-config-file.js";
import { toTerminalSafe, toTerminalSafeLine } from "@xzatoma/safety";

/**
 * `xzatoma-watcher run --config FILE [--workspace DIR] [--dry-run]`: the service. Consumes the
 * configured topic until SIGTERM or SIGINT, then stops taking messages, gives in-flight runs
 * `watcher.execution.shutdown_grace_secs` to finish (the rest are redelivered), commits, leaves
 * the group and exits 0, within the grace and {@link STOP_TIMEOUT_MS} more whatever the
 * broker's state. Exit 1 when the consumer fails for good or the service cannot start; 2 for
 * usage.
 */
/**
 * After the grace, how long the stop may take at most (the transport's own bound is 10 s): a
 * process still there then exits all the same, with {@link EXIT_STOP_TIMED_OUT}.
 */
export const STOP_TIMEOUT_MS = 15_000;
/** Exit code of a stop that did not end within the grace and {@link STOP_TIMEOUT_MS}. */
export const EXIT_STOP_TIMED_OUT = 1;

/**
 * Ends the process `ms` from now unless it has ended by itself: the Kafka client can keep
 * retrying a broker that is away after it was told to disconnect, and that must not keep a
 * stopped service alive (and in its group) for ever.
 */
function exitAfter(ms: number, code: number, why?: string): void {
  setTimeout(() => {
    if (why) process.stderr.write(`xzatoma-watcher: ${toTerminalSafe(why)}\n`);
    process.exit(code);
  }, ms).unref();
}

export async function runWatcher(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      config: { type: "string", short: "c" },
      workspace: { type: "string", short: "w" },
      "dry-run": { type: "boolean" },
    },
  });
  if (positionals.length > 0) {
    process.stderr.write(
      `error: run takes no arguments (got '${toTerminalSafeLine(positionals[0] ?? "")}'); use --config FILE\n`,
    );
    return 2;
  }
  // The same loader as the CLI's: the file, then XZATOMA_* and the ecosystem's variables.
  const loaded = await loadWatcherConfigFile("run", values.config, env);
  if (!loaded) return 2;
  const { config, configPath } = loaded;
  const workspace = path.resolve(values.workspace ?? process.cwd());
  const health = loaded.watcher.health;
  const telemetry = await startTelemetry(env, {
    ...(health?.port !== undefined ? { prometheusHandler: true } : {}),
    warn: (message) => process.stderr.write(`xzatoma-watcher: ${toTerminalSafe(message)}\n`),
  });

  let fatal: Error | undefined;
  let wake: () => void = () => undefined;
  const stopped = new Promise<string>((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => resolve(signal);
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
    wake = () => resolve("fatal");
  });

  let watcher: Awaited<ReturnType<typeof startWatcher>>;
  try {
    const starting = startWatcher({
      config,
      workspace,
      configPath: path.resolve(configPath),
      env,
      release: (createRequire(import.meta.url)("../package.json") as { version: string }).version,
      ...(values["dry-run"] ? { dryRun: true } : {}),
      ...(telemetry ? { telemetry: { tracer: telemetry.tracer, meter: telemetry.meter } } : {}),
      onFatal(error) {
        fatal = error;
        wake();
      },
    });
    // A signal while the service is still starting (a broker that does not answer yet) stops
    // it then: nothing was consumed, so nothing is in flight.
    const first = await Promise.race([starting, stopped]);
    if (typeof first === "string") {
      const code = fatal ? 1 : 0;
      starting.then((started) => started.close(0)).catch(() => undefined);
      process.stderr.write(
        fatal
          ? `error: the Kafka consumer stopped: ${toTerminalSafeLine((fatal as Error).message)}\n`
          : `xzatoma-watcher: ${toTerminalSafeLine(first)} while starting; stopped\n`,
      );
      exitAfter(STOP_TIMEOUT_MS, code);
      await telemetry?.shutdown();
      exitAfter(1000, code);
      return code;
    }
    watcher = first;
  } catch (error) {
    await telemetry?.shutdown();
    throw error;
  }
  let server: HealthServer | undefined;
  try {
    if (health?.port !== undefined) {
      server = await serveHealth({
        host: health.host,
        port: health.port,
        status: () => watcher.service.status(),
        ...(telemetry?.metricsHandler ? { metrics: telemetry.metricsHandler } : {}),
      });
      watcher.logger.info("health endpoint", {
        url: server.url,
        paths: ["/healthz", "/readyz", ...(telemetry?.metricsHandler ? ["/metrics"] : [])],
      });
    }
    const reason = await stopped;
    watcher.logger.info("shutting down", { reason });
    const graceMs = loaded.watcher.execution.shutdown_grace_secs * 1000;
    exitAfter(
      graceMs + STOP_TIMEOUT_MS,
      EXIT_STOP_TIMED_OUT,
      `the service did not stop within watcher.execution.shutdown_grace_secs + ${STOP_TIMEOUT_MS / 1000} s; exiting`,
    );
  } finally {
    await watcher.close();
    await server?.close();
    await telemetry?.shutdown();
  }
  const code = fatal ? 1 : 0;
  if (fatal) {
    process.stderr.write(
      `error: the Kafka consumer stopped: ${toTerminalSafe((fatal as Error).message)}\n`,
    );
  }
  // Stopped: what the Kafka client may still be retrying does not keep the process.
  exitAfter(1000, code);
  return code;
}
