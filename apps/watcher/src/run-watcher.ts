import { statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import { startWatcher } from "@xzatoma/watcher/runtime";
import { createMessageJudge, type WatcherStatus } from "@xzatoma/watcher";
import { serveHealth, type HealthServer } from "./health-server.js";
import { startTelemetry } from "./telemetry/index.js";
import { loadWatcherConfigFile } from "./watcher-config-file.js";
import { toTerminalSafe, toTerminalSafeLine } from "@xzatoma/safety";

/**
 * `xzatoma-watcher run --config FILE [--workspace DIR] [--dry-run]`: the service. Consumes the
 * configured topic until SIGTERM or SIGINT, then stops taking messages, gives in-flight runs
 * `watcher.execution.shutdown_grace_secs` to finish (the rest are redelivered), commits, leaves
 * the group and exits 0, within the grace and {@link STOP_TIMEOUT_MS} more whatever the
 * broker's state. Exit 1 when the consumer fails for good; {@link EXIT_NOT_STARTED} (2) when
 * the service did not start.
 */
/**
 * After the grace, how long the stop may take at most (the transport's own bound is 10 s): a
 * process still there then exits all the same, with {@link EXIT_STOP_TIMED_OUT}.
 */
export const STOP_TIMEOUT_MS = 15_000;
/** Exit code of a stop that did not end within the grace and {@link STOP_TIMEOUT_MS}. */
export const EXIT_STOP_TIMED_OUT = 1;
/**
 * Exit code of a service that did not start: a usage error, a configuration that is not
 * valid, a workspace that is no directory, the health port in use, brokers that cannot be
 * reached or that refuse the credentials. Nothing was consumed; fix the setup and start again.
 */
export const EXIT_NOT_STARTED = 2;

/** What the health endpoint answers before the service consumes. */
const STARTING: WatcherStatus = {
  live: true,
  ready: false,
  stopping: false,
  state: "starting",
  counts: {
    consumed: 0,
    executed: 0,
    failed: 0,
    republished: 0,
    filtered: 0,
    duplicate: 0,
    dead_lettered: 0,
    skipped: 0,
  },
};

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
    return EXIT_NOT_STARTED;
  }
  // Everything that can be checked is checked before the group is joined: the configuration,
  // the filters, the workspace, the health port, then whether the broker answers. Each
  // failure is exit 2 with a line that names what to fix.
  const cannotStart = (message: string) => {
    process.stderr.write(`error: ${toTerminalSafe(message)}\n`);
    return EXIT_NOT_STARTED;
  };
  let loaded: Awaited<ReturnType<typeof loadWatcherConfigFile>>;
  try {
    // The same loader as the CLI's: the file, then XZATOMA_* and the ecosystem's variables.
    loaded = await loadWatcherConfigFile("run", values.config, env);
    if (!loaded) return EXIT_NOT_STARTED;
    createMessageJudge(loaded.watcher);
  } catch (error) {
    return cannotStart((error as Error).message);
  }
  const { config, configPath } = loaded;
  const workspace = path.resolve(values.workspace ?? process.cwd());
  if (!statSync(workspace, { throwIfNoEntry: false })?.isDirectory()) {
    return cannotStart(
      `the workspace ${workspace} is not a directory (--workspace, default the current directory)`,
    );
  }
  const health = loaded.watcher.health;
  const telemetry = await startTelemetry(env, {
    ...(health?.port !== undefined ? { prometheusHandler: true } : {}),
    warn: (message) => process.stderr.write(`xzatoma-watcher: ${toTerminalSafe(message)}\n`),
  });
  // The health endpoint opens first, so a port in use is said at once, before the group is
  // joined (where a clash would take a partition from the group for nothing).
  let watcher: Awaited<ReturnType<typeof startWatcher>> | undefined;
  let server: HealthServer | undefined;
  if (health?.port !== undefined) {
    try {
      server = await serveHealth({
        host: health.host,
        port: health.port,
        status: () => watcher?.service.status() ?? STARTING,
        ...(telemetry?.metricsHandler ? { metrics: telemetry.metricsHandler } : {}),
      });
    } catch (error) {
      await telemetry?.shutdown();
      return cannotStart((error as Error).message);
    }
  }

  let fatal: Error | undefined;
  let wake: () => void = () => undefined;
  const stopped = new Promise<string>((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => resolve(signal);
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
    wake = () => resolve("fatal");
  });

  try {
    const starting = startWatcher({
      config,
      workspace,
      configPath: path.resolve(configPath),
      env,
      release: (createRequire(import.meta.url)("../package.json") as { version: string }).version,
      ...(values["dry-run"] ? { dryRun: true } : {}),
      ...(telemetry
        ? {
            telemetry: {
              tracer: telemetry.tracer,
              meter: telemetry.meter,
              createRunTelemetry: telemetry.createRunTelemetry,
            },
          }
        : {}),
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
      await server?.close();
      await telemetry?.shutdown();
      exitAfter(1000, code);
      return code;
    }
    watcher = first;
  } catch (error) {
    await server?.close();
    await telemetry?.shutdown();
    // Brokers that cannot be reached, credentials refused, a topic that cannot be created:
    // nothing was consumed.
    process.stderr.write(
      `error: the service did not start: ${toTerminalSafe((error as Error).message)}\n`,
    );
    exitAfter(1000, EXIT_NOT_STARTED);
    return EXIT_NOT_STARTED;
  }
  const started = watcher;
  try {
    if (server) {
      started.logger.info("health endpoint", {
        url: server.url,
        paths: ["/healthz", "/readyz", ...(telemetry?.metricsHandler ? ["/metrics"] : [])],
      });
    }
    const reason = await stopped;
    started.logger.info("shutting down", { reason });
    const graceMs = loaded.watcher.execution.shutdown_grace_secs * 1000;
    exitAfter(
      graceMs + STOP_TIMEOUT_MS,
      EXIT_STOP_TIMED_OUT,
      `the service did not stop within watcher.execution.shutdown_grace_secs + ${STOP_TIMEOUT_MS / 1000} s; exiting`,
    );
  } finally {
    await started.close();
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
