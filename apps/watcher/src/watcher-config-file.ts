import { homedir } from "node:os";
import { loadConfig, type RuntimeConfig } from "@xzatoma/runtime";
import { createWatcherTransport } from "@xzatoma/watcher/runtime";
import { createWatcherLogger, type WatcherConfig } from "@xzatoma/watcher";
import type { EventTransport } from "@xzatoma/xzepr";
import { toTerminalSafe, toTerminalSafeLine } from "@xzatoma/safety";

/** A loaded configuration that has a watcher section. */
export interface WatcherConfigFile {
  readonly config: RuntimeConfig;
  readonly watcher: WatcherConfig;
  readonly configPath: string;
}

/**
 * Loads `--config FILE` (or `XZATOMA_CONFIG`) as the CLI does, the file then the environment,
 * writes its warnings to stderr and returns it with its watcher section. Undefined, with the
 * usage error written, when no file is given; a file without a watcher section is an error
 * that says what to add.
 */
export async function loadWatcherConfigFile(
  command: string,
  configFlag: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<WatcherConfigFile | undefined> {
  if (!configFlag && !env["XZATOMA_CONFIG"]) {
    process.stderr.write(
      `error: ${toTerminalSafeLine(command)} needs --config FILE (the XZatoma configuration with a watcher section) or XZATOMA_CONFIG\n`,
    );
    return undefined;
  }
  const loaded = await loadConfig({
    ...(configFlag ? { configPath: configFlag } : {}),
    env,
    homeDir: homedir(),
  });
  for (const warning of loaded.warnings)
    process.stderr.write(`xzatoma-watcher: ${toTerminalSafe(warning)}\n`);
  const watcher = loaded.config.watcher;
  if (watcher === undefined) {
    throw new Error(
      `${loaded.configPath} has no watcher section: add \`watcher:\` with at least \`kafka: { brokers: host:port, topic: NAME }\` (see docs/how-to/deploy-the-watcher.md)`,
    );
  }
  return { config: loaded.config, watcher, configPath: loaded.configPath };
}

/** The watcher section with `--brokers` applied, when given. */
export function withBrokers(watcher: WatcherConfig, brokers: string | undefined): WatcherConfig {
  return brokers === undefined ? watcher : { ...watcher, kafka: { ...watcher.kafka, brokers } };
}

/**
 * The Kafka transport of an operator tool (`publish`, `results`): no transactions, its own
 * client id, and the client's log lines only with `--verbose` (what makes the command fail is
 * its error message).
 */
export function createToolTransport(
  watcher: WatcherConfig,
  env: NodeJS.ProcessEnv,
  tool: string,
  verbose: boolean | undefined,
): EventTransport {
  const logger = createWatcherLogger({
    level: "debug",
    json: false,
    ...(verbose ? {} : { write: () => undefined }),
  });
  return createWatcherTransport(watcher, {
    env,
    logger,
    transactional: false,
    clientId: `${watcher.kafka.client_id}-${tool}`,
  });
}

/** Creates `topic` as the watcher section says, when it may create topics. */
export async function ensureTopic(
  transport: EventTransport,
  watcher: WatcherConfig,
  topic: string,
): Promise<void> {
  if (!watcher.kafka.auto_create_topics) return;
  await transport.ensureTopics([
    {
      topic,
      numPartitions: watcher.kafka.num_partitions,
      replicationFactor: watcher.kafka.replication_factor,
    },
  ]);
}
