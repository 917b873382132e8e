import { checkEvent } from "./check-event.js";
import { runEvent } from "./run-event.js";
import { publishEvents } from "./publish-events.js";
import { readResults } from "./read-results.js";
import { runWatcher } from "./run-watcher.js";
import { toTerminalSafe, toTerminalSafeLine } from "@xzatoma/safety";

const HELP = `Usage: xzatoma-watcher <command> [options]

The XZatoma watcher service: consumes events from Kafka (XZepr's and any CloudEvents
producer's), runs the plans they carry through the agent with the privileges the
configuration gives, and publishes a result event for each.

Commands:
  run                run the service until SIGTERM or SIGINT
      --config FILE          XZatoma configuration with a watcher section (or XZATOMA_CONFIG)
      --workspace DIR        where plans run (default: the current directory)
      --dry-run              read, filter and match, but run and publish nothing
  publish EVENT...   publish event files (- for stdin) to the watcher's topic
      --config FILE          the watcher's configuration (brokers, topic, security)
      --topic TOPIC          another topic (default: watcher.kafka.topic)
      --brokers LIST         other bootstrap servers (host:port,...)
      --key KEY              message key (default: the event's id)
      --json                 one JSON line per published file
      -v, --verbose          show the Kafka client's log lines
  results            print the result events on the watcher's output topic
      --config FILE          the watcher's configuration
      --topic TOPIC          another topic (default: watcher.kafka.output_topic)
      --brokers LIST         other bootstrap servers
      -n, --count N          stop after N results
      --timeout SECS         stop after SECS seconds
      --json                 each result as one CloudEvent JSON line
      -v, --verbose          show the Kafka client's log lines
  run-event FILE     run the plan an XZepr event file carries through the agent
      --workspace DIR        where the plan runs (required)
      --config FILE          XZatoma configuration (YAML; else XZATOMA_CONFIG or the
                             default path); privileges come only from it
      --json                 print the result as JSON
  check-event FILE   say what the service would do with an event file: run it, or
                     filter, skip or dead-letter it (and why), by the service's own rules
      --config FILE          the watcher's configuration (default: the service's defaults)
      --success-only         only successful events
      --event-type TYPE      accepted event type (repeatable)
      --source-pattern RE    regular expression the source must match
      --json                 print the verdict as JSON

Options:
  -h, --help       show help
  -V, --version    print the version

Exit codes: run: 0 stopped by a signal, 1 the consumer failed or the service could not
start, 2 usage error; publish: 0 sent, 1 not sent; results: 0 done, 1 fewer than --count
within --timeout or the consumer failed; check-event: 0 it would run, 1 filtered, skipped or dead-lettered, 2 usage error;
run-event: 0 completed, 1 failure, 2 usage error, 3 a limit stopped the run.

See docs/how-to/deploy-the-watcher.md.
`;

/** Commands whose failures are 1, except a usage error (an unknown or malformed flag): 2. */
const SERVICE_COMMANDS: Readonly<Record<string, (args: string[]) => Promise<number>>> = {
  run: (args) => runWatcher(args),
  "run-event": (args) => runEvent(args),
  publish: (args) => publishEvents(args),
  results: (args) => readResults(args),
};

/** True for the errors `parseArgs` throws for unknown or malformed flags. */
function isUsageError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("ERR_PARSE_ARGS_");
}

/** Runs the `xzatoma-watcher` command line and resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "-h" || command === "--help") {
    process.stdout.write(HELP);
    return 0;
  }
  if (command === "-V" || command === "--version") {
    const { createRequire } = await import("node:module");
    const manifest = createRequire(import.meta.url)("../package.json") as { version: string };
    // terminal-safe: the version of the package.json beside this file.
    process.stdout.write(`xzatoma-watcher ${manifest.version}\n`);
    return 0;
  }
  const service = SERVICE_COMMANDS[command ?? ""];
  if (service) {
    try {
      return await service(rest);
    } catch (error) {
      process.stderr.write(`error: ${toTerminalSafe((error as Error).message)}\n`);
      return isUsageError(error) ? 2 : 1;
    }
  }
  if (command === "check-event") {
    try {
      return await checkEvent(rest);
    } catch (error) {
      process.stderr.write(`error: ${toTerminalSafe((error as Error).message)}\n`);
      return isUsageError(error) ? 2 : 1;
    }
  }
  process.stderr.write(
    `${HELP}\nerror: ${command === undefined ? "no command given" : `unknown command '${toTerminalSafeLine(command)}'`}\n`,
  );
  return 2;
}
