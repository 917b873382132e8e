import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import { startWatcher } from "@xzatoma/runtime/watcher";
import { serveHealth, type HealthServer } from "./health-server.js";
import { startTelemetry } from "./telemetry/index.js";
import { loadWatcherConfigFile } from "./watcher-config-file.js";

/**
 * `xzatoma-watcher run --config FILE [--workspace DIR] [--dry-run]`: the service. Consumes the
 * configured topic until SIGTERM or SIGINT, then stops taking messages, gives in-flight runs
 * `watcher.execution.shutdown_grace_secs` to finish (the rest are redelivered), commits and
 * exits 0. Exit 1 when the consumer fails for good or the service cannot start; 2 for usage.
 */
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
      `error: run takes no arguments (got '${positionals[0]}'); use --config FILE\n`,
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
    warn: (message) => process.stderr.write(`xzatoma-watcher: ${message}\n`),
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
    watcher = await startWatcher({
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
  } finally {
    await watcher.close();
    await server?.close();
    await telemetry?.shutdown();
  }
  if (fatal) {
    process.stderr.write(`error: the Kafka consumer stopped: ${(fatal as Error).message}\n`);
    return 1;
  }
  return 0;
}
