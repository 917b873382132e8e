import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { openRuntimeHistory } from "@xzatoma/runtime";
import { toTerminalSafeJson, toTerminalSafeLine } from "@xzatoma/safety";
import { historyLedger, ledgerKeyOf, parseLedgerKey, type LedgerEntry } from "@xzatoma/watcher";
import { loadWatcherConfigFile } from "./watcher-config-file.js";

/** One entry as `ledger show` prints it. */
interface Shown {
  readonly source: string;
  readonly id: string;
  readonly entry: LedgerEntry;
}

function formatEntry({ source, id, entry }: Shown): string {
  const safe = toTerminalSafeLine;
  const lines = [
    `${safe(entry.outcome).padEnd(10)} ${safe(id)} from ${safe(source)}`,
    ...(entry.processedAt !== undefined ? [`  handled:      ${safe(entry.processedAt)}`] : []),
    ...(entry.delivery !== undefined ? [`  message:      ${safe(entry.delivery)}`] : []),
    ...(entry.conversationId !== undefined
      ? [`  conversation: ${safe(entry.conversationId)} (xzatoma history show)`]
      : []),
    ...(entry.result !== undefined
      ? ["  result:       stored (published again if the same message is delivered again)"]
      : []),
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * `xzatoma-watcher ledger show|forget EVENT_ID --config FILE [--source SOURCE] [--json]`: the
 * idempotency ledger of the service (in the history database of `persistence`). `show` prints
 * how the service handled the event with this id (every source that sent one); `forget`
 * deletes the entry, so that the event runs again the next time the service reads it (an
 * operator publishes it again on purpose). Exit 0 done, 1 no entry, 2 usage.
 */
export async function ledger(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      config: { type: "string", short: "c" },
      source: { type: "string" },
      json: { type: "boolean" },
    },
  });
  const [action, id, ...extra] = positionals;
  if (action !== "show" && action !== "forget") {
    process.stderr.write(
      `error: ledger needs show or forget${action === undefined ? "" : ` (got '${toTerminalSafeLine(action)}')`}: xzatoma-watcher ledger show|forget EVENT_ID --config FILE\n`,
    );
    return 2;
  }
  if (id === undefined || id === "" || extra.length > 0) {
    process.stderr.write(`error: ledger ${action} takes exactly one EVENT_ID\n`);
    return 2;
  }
  const loaded = await loadWatcherConfigFile(`ledger ${action}`, values.config, env);
  if (!loaded) return 2;
  const dbPath = loaded.config.persistence.db_path;
  if (!existsSync(dbPath)) {
    process.stderr.write(
      `error: there is no ledger at ${toTerminalSafeLine(dbPath)} (persistence.db_path): the service has not run with this configuration\n`,
    );
    return 1;
  }
  const history = openRuntimeHistory(dbPath);
  try {
    const events = historyLedger(history);
    const found: Shown[] = (
      values.source !== undefined
        ? [
            {
              key: ledgerKeyOf(values.source, id),
              entry: events.lookup(ledgerKeyOf(values.source, id)),
            },
          ]
        : (events.findById?.(id) ?? [])
    ).flatMap(({ key, entry }) => {
      const parsed = parseLedgerKey(key);
      return entry !== undefined && parsed !== undefined ? [{ ...parsed, entry }] : [];
    });
    const where = `${toTerminalSafeLine(id)}${values.source !== undefined ? ` from ${toTerminalSafeLine(values.source)}` : ""}`;
    if (found.length === 0) {
      process.stderr.write(`error: the ledger has no event ${where}\n`);
      return 1;
    }
    if (action === "show") {
      for (const shown of found) {
        // terminal-safe: formatEntry escapes every field it prints.
        process.stdout.write(values.json ? `${toTerminalSafeJson(shown)}\n` : formatEntry(shown));
      }
      return 0;
    }
    if (found.length > 1) {
      process.stderr.write(
        `error: the ledger has event ${toTerminalSafeLine(id)} from ${found.length} sources (${found.map((shown) => toTerminalSafeLine(shown.source)).join(", ")}): say which with --source\n`,
      );
      return 2;
    }
    const [only] = found as [Shown];
    events.forget?.(ledgerKeyOf(only.source, only.id));
    process.stdout.write(
      values.json
        ? `${toTerminalSafeJson({ forgotten: true, source: only.source, id: only.id })}\n`
        : `forgot ${toTerminalSafeLine(only.id)} from ${toTerminalSafeLine(only.source)} (was ${toTerminalSafeLine(only.entry.outcome)}): it runs again the next time the service reads it\n`,
    );
    return 0;
  } finally {
    history.close();
  }
}
