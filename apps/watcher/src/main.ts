import { checkEvent } from "./check-event.js";
import { deadLetters } from "./dead-letters.js";
import { ledger } from "./ledger.js";
import { runEvent } from "./run-event.js";
import { publishEvents } from "./publish-events.js";
import { readResults } from "./read-results.js";
import { runWatcher } from "./run-watcher.js";
import { toTerminalSafe, toTerminalSafeLine } from "@xzatoma/safety";

/** One command: what it does, its options and exit codes (its `--help`), and how it runs. */
interface Command {
  readonly usage: string;
  readonly summary: string;
  readonly options: string;
  readonly exits: string;
  readonly run: (args: string[]) => Promise<number>;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  run: {
    usage: "run --config FILE [--workspace DIR] [--dry-run]",
    summary: "run the service until SIGTERM or SIGINT",
    options: `  -c, --config FILE      XZatoma configuration with a watcher section (or XZATOMA_CONFIG)
  -w, --workspace DIR    where plans run (default: the current directory)
      --dry-run          read, filter and match, but run and publish nothing`,
    exits:
      "0 stopped by a signal; 1 the consumer stopped for good, or the stop outlasted its bound; 2 the service did not start (a usage error, an invalid configuration, the health port in use, brokers that cannot be reached)",
    run: (args) => runWatcher(args),
  },
  publish: {
    usage: "publish --config FILE EVENT...",
    summary: "publish event files (- for stdin) to the watcher's topic",
    options: `  -c, --config FILE      the watcher's configuration (brokers, topic, security)
      --topic TOPIC      another topic (default: watcher.kafka.topic)
      --brokers LIST     other bootstrap servers (host:port,...)
      --key KEY          message key (default: the event's id)
      --json             one JSON line per published file
  -v, --verbose          show the Kafka client's log lines`,
    exits: "0 sent; 1 not sent; 2 usage error",
    run: (args) => publishEvents(args),
  },
  results: {
    usage: "results --config FILE [-n N] [--timeout SECS] [--json]",
    summary: "print the result events on the watcher's output topic",
    options: `  -c, --config FILE      the watcher's configuration
      --topic TOPIC      another topic (default: watcher.kafka.output_topic)
      --brokers LIST     other bootstrap servers
  -n, --count N          stop after N results
      --timeout SECS     stop after SECS seconds
      --json             each result as one CloudEvent JSON line
  -v, --verbose          show the Kafka client's log lines`,
    exits: "0 done; 1 fewer than --count within --timeout, or the consumer failed; 2 usage error",
    run: (args) => readResults(args),
  },
  dlq: {
    usage: "dlq list|show|replay --config FILE [REF...]",
    summary: "read the dead letters with their reasons, and publish them again",
    options: `  list                   every dead letter: its place (PARTITION:OFFSET), reason code,
                         where it was consumed, when, and why
  show REF...            one dead letter in full: headers and value (REF: PARTITION:OFFSET
                         in the dead-letter topic, or the message key, an event's id)
  replay REF...          publish each again to the topic it was consumed from, with its
                         key, value and original headers (--all: every one; --code CODE:
                         those with this reason code)
  -c, --config FILE      the watcher's configuration
      --topic TOPIC      another dead-letter topic (default: watcher.kafka.dead_letter_topic)
      --brokers LIST     other bootstrap servers
      --all              replay: every dead letter
      --code CODE        list, replay: only this reason code (too_large, tombstone,
                         undecodable, no_plan, invalid_plan)
      --dry-run          replay: say what would be published, publish nothing
  -n, --limit N          read at most N dead letters (default 10000)
      --json             one JSON line per dead letter
  -v, --verbose          show the Kafka client's log lines`,
    exits:
      "0 done; 1 a REF was not found, a dead letter could not be replayed (cut or a tombstone), or Kafka failed; 2 usage error",
    run: (args) => deadLetters(args),
  },
  ledger: {
    usage: "ledger show|forget --config FILE EVENT_ID [--source SOURCE]",
    summary: "show how an event was handled, or forget it so it runs again",
    options: `  show EVENT_ID          the ledger's entries for this event id (any source): outcome,
                         when, where the message sat, the conversation
  forget EVENT_ID        delete the entry, so the event runs again the next time it is
                         read (publish it again: xzatoma-watcher publish)
  -c, --config FILE      the configuration (persistence.db_path, or data_dir)
      --source SOURCE    only the event from this source (forget needs it when the id
                         is known under several sources)
      --json             the entries as JSON`,
    exits: "0 done; 1 no entry for the event; 2 usage error",
    run: (args) => ledger(args),
  },
  "run-event": {
    usage: "run-event FILE --workspace DIR [--config FILE] [--json]",
    summary: "run the plan an XZepr event file carries through the agent",
    options: `      --workspace DIR    where the plan runs (required)
      --config FILE      XZatoma configuration (YAML; else XZATOMA_CONFIG or the default
                         path); privileges come only from it
      --json             print the result as JSON`,
    exits: "0 completed; 1 failure or not run; 2 usage error; 3 a limit stopped the run",
    run: (args) => runEvent(args),
  },
  "check-event": {
    usage: "check-event FILE [--config FILE] [filter flags] [--json]",
    summary:
      "say what the service would do with an event file: run it, or filter, skip or dead-letter it (and why), by the service's own rules",
    options: `  -c, --config FILE      the watcher's configuration (default: the service's defaults)
      --success-only     only successful events
      --event-type TYPE  accepted event type (repeatable)
      --source-pattern RE
                         regular expression the source must match
      --json             print the verdict as JSON`,
    exits: "0 it would run; 1 filtered, skipped or dead-lettered; 2 usage error",
    run: (args) => checkEvent(args),
  },
};

const indent = (text: string, by: string) =>
  text
    .split("\n")
    .map((line) => by + line)
    .join("\n");

const HELP = `Usage: xzatoma-watcher <command> [options]
       xzatoma-watcher <command> --help

The XZatoma watcher service: consumes events from Kafka (XZepr's and any CloudEvents
producer's), runs the plans they carry through the agent with the privileges the
configuration gives, and publishes a result event for each.

Commands:
${Object.entries(COMMANDS)
  .map(
    ([name, command]) =>
      `  ${name.padEnd(12)} ${command.summary}\n${indent(command.options, "  ")}`,
  )
  .join("\n")}

Options:
  -h, --help       show help (after a command: that command's)
  -V, --version    print the version

Exit codes:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name}: ${command.exits}`)
  .join("\n")}

See docs/how-to/deploy-the-watcher.md.
`;

/** `xzatoma-watcher <command> --help`. */
export function commandHelp(name: string): string | undefined {
  const command = COMMANDS[name];
  if (!command) return undefined;
  return `Usage: xzatoma-watcher ${command.usage}

${command.summary[0]?.toUpperCase()}${command.summary.slice(1)}.

Options:
${command.options}
  -h, --help             show this help

Exit codes: ${command.exits}.

See docs/how-to/deploy-the-watcher.md.
`;
}

/** True for the errors `parseArgs` throws for unknown or malformed flags. */
function isUsageError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("ERR_PARSE_ARGS_");
}

/** Runs the `xzatoma-watcher` command line and resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "-h" || name === "--help") {
    // terminal-safe: HELP is fixed text.
    process.stdout.write(HELP);
    return 0;
  }
  if (name === "help") {
    const help = rest[0] === undefined ? HELP : commandHelp(rest[0]);
    if (help === undefined) {
      process.stderr.write(`error: unknown command '${toTerminalSafeLine(rest[0] ?? "")}'\n`);
      return 2;
    }
    // terminal-safe: fixed help text of a known command.
    process.stdout.write(help);
    return 0;
  }
  if (name === "-V" || name === "--version") {
    const { createRequire } = await import("node:module");
    const manifest = createRequire(import.meta.url)("../package.json") as { version: string };
    // terminal-safe: the version of the package.json beside this file.
    process.stdout.write(`xzatoma-watcher ${manifest.version}\n`);
    return 0;
  }
  const command = COMMANDS[name ?? ""];
  if (command) {
    // `--help` anywhere before a `--`: the command's help, whatever else is given.
    const beforeEnd = rest.indexOf("--") === -1 ? rest : rest.slice(0, rest.indexOf("--"));
    if (beforeEnd.includes("--help") || beforeEnd.includes("-h")) {
      // terminal-safe: fixed help text of a known command.
      process.stdout.write(commandHelp(name ?? "") ?? HELP);
      return 0;
    }
    try {
      return await command.run(rest);
    } catch (error) {
      process.stderr.write(`error: ${toTerminalSafe((error as Error).message)}\n`);
      return isUsageError(error) ? 2 : 1;
    }
  }
  // terminal-safe: HELP is fixed text and the name goes through the escaper.
  process.stderr.write(
    `${HELP}\nerror: ${name === undefined ? "no command given" : `unknown command '${toTerminalSafeLine(name)}'`}\n`,
  );
  return 2;
}
