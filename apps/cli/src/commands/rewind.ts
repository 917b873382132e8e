import { homedir } from "node:os";
import path from "node:path";
import {
  applyRewind,
  checkpointTurns,
  createBlobStore,
  describeState,
  planRewind,
  readCheckpointLines,
  type RewindPlan,
  type RewindResult,
} from "@xzatoma/persistence";
import { loadConfig, openRuntimeHistory } from "@xzatoma/runtime";
import { FLAG_MAPPINGS } from "../config/flag-mapping.js";
import { ExitCode } from "../exit-codes.js";
import { toTerminalSafeJson, toTerminalSafeLine } from "../render/terminal-safe.js";
import { forkConversation, messagesBeforeTurn } from "../rewind/fork-conversation.js";
import { UsageError } from "../usage-error.js";

/** Options of `xzatoma rewind`. */
export interface RewindCommandOptions {
  readonly storagePath?: string;
  readonly config?: string;
  readonly to?: number;
  readonly codeOnly?: boolean;
  readonly chatOnly?: boolean;
  readonly dryRun?: boolean;
  readonly force?: boolean;
  readonly list?: boolean;
  readonly json?: boolean;
}

const safe = (text: string) => toTerminalSafeLine(text);

/**
 * `xzatoma rewind ID`: puts the workspace, the conversation or both back to where they were
 * before turn `--to` (default: the last turn). Exit 0 when done (or with `--dry-run`), 1 when
 * a conflict stopped it (nothing changed) or a path could not be put back.
 */
export async function rewindCommand(id: string, options: RewindCommandOptions): Promise<number> {
  if (options.codeOnly && options.chatOnly) {
    throw new UsageError(
      "--code-only and --chat-only exclude each other; leave both out for both.",
    );
  }
  const loaded = await loadConfig({
    ...(options.config ? { configPath: options.config } : {}),
    env: process.env,
    flags: options.storagePath ? { storagePath: options.storagePath } : {},
    flagMappings: FLAG_MAPPINGS,
    homeDir: homedir(),
    cwd: process.cwd(),
  });
  const dataDir = loaded.config.persistence.data_dir;
  const history = openRuntimeHistory(loaded.config.persistence.db_path);
  try {
    const conversation = history.getConversation(id);
    if (!conversation) {
      process.stderr.write(
        `No stored conversation '${safe(id)}' ('xzatoma history list' shows them).\n`,
      );
      return ExitCode.failure;
    }
    const checkpoints = path.join(dataDir, "checkpoints");
    const lines = readCheckpointLines(checkpoints, conversation.id);
    const turns = checkpointTurns(lines);
    const assistantTurns = conversation.messages.filter((m) => m.role === "assistant").length;
    if (options.list) return listTurns(conversation.id, turns, options.json === true);
    const lastTurn = Math.max(turns.at(-1)?.turn ?? 0, assistantTurns);
    const toTurn = options.to ?? lastTurn;
    if (toTurn < 1 || toTurn > lastTurn) {
      throw new UsageError(
        lastTurn === 0
          ? `Conversation ${conversation.id} has no turns to rewind.`
          : `--to ${toTurn}: conversation ${conversation.id} has turns 1 to ${lastTurn}.`,
      );
    }
    const report: Record<string, unknown> = {
      conversationId: conversation.id,
      toTurn,
      dryRun: options.dryRun === true,
    };
    const out: string[] = [];
    let failed = false;
    if (!options.chatOnly) {
      const workspace = turns.find((turn) => turn.turn >= toTurn)?.workspace;
      const plan: RewindPlan | undefined =
        workspace === undefined ? undefined : planRewind(lines, toTurn, workspace);
      if (plan === undefined) {
        out.push(
          `No file changes were recorded from turn ${toTurn} on; the workspace stays as it is.`,
        );
      } else {
        report.workspace = plan.workspace;
        report.conflicts = plan.conflicts.map((conflict) => ({
          path: conflict.path,
          reason: conflict.reason,
        }));
        report.unrestorable = plan.unrestorable.map((change) => change.path);
        if (plan.conflicts.length > 0 && !options.force) {
          report.restored = [];
          const lines = [
            `Rewind stopped: ${plan.conflicts.length} path${plan.conflicts.length === 1 ? " was" : "s were"} changed by someone other than the agent, and nothing was changed:`,
            ...plan.conflicts.map(
              (conflict) => `  ${safe(conflict.path)}: ${safe(conflict.reason)}`,
            ),
            "Keep your changes and leave the rewind, or run it again with --force (your versions are copied to the data directory first).",
          ];
          return finish(options, report, lines, ExitCode.failure);
        }
        const planned = [...plan.changes, ...(options.force ? plan.conflicts : [])];
        report.changes = planned.map((change) => ({
          path: change.path,
          from: describeState(change.current),
          to: describeState(change.target),
        }));
        if (options.dryRun) {
          out.push(
            `Would put back ${planned.length} path${planned.length === 1 ? "" : "s"} in ${safe(plan.workspace)}:`,
          );
          for (const change of planned) {
            out.push(
              `  ${safe(change.path)}: ${describeState(change.current)} -> ${describeState(change.target)}`,
            );
          }
        } else {
          const stamp = new Date().toISOString().replace(/[:.]/g, "-");
          const result: RewindResult = applyRewind(
            plan.workspace,
            planned,
            createBlobStore(checkpoints),
            {
              paths: options.force ? plan.conflicts.map((conflict) => conflict.path) : [],
              directory: path.join(checkpoints, "kept", `${conversation.id}-${stamp}`),
            },
          );
          report.restored = result.restored;
          report.failed = result.failed;
          report.kept = result.kept;
          failed = result.failed.length > 0;
          out.push(
            `Put back ${result.restored.length} path${result.restored.length === 1 ? "" : "s"} in ${safe(plan.workspace)} as they were before turn ${toTurn}.`,
          );
          for (const kept of result.kept)
            out.push(`  your ${safe(kept.path)} is kept at ${safe(kept.copy)}`);
          for (const failure of result.failed)
            out.push(`  could not put back ${safe(failure.path)}: ${safe(failure.reason)}`);
        }
        for (const change of plan.unrestorable) {
          out.push(
            `  cannot put back ${safe(change.path)}: it was over the checkpoint size limit, so only its hash was recorded`,
          );
        }
      }
    }
    if (!options.codeOnly) {
      const keep = messagesBeforeTurn(conversation.messages, toTurn);
      report.messagesKept = keep;
      if (options.dryRun) {
        out.push(
          `Would continue the conversation as a fork with its first ${keep} message${keep === 1 ? "" : "s"}; ${conversation.id} stays as it is.`,
        );
      } else {
        const forkId = forkConversation(history, dataDir, conversation.id, { keep, toTurn });
        report.forkId = forkId;
        out.push(
          `The conversation continues as ${forkId} (its first ${keep} message${keep === 1 ? "" : "s"}); ${conversation.id} stays in history. Resume it: xzatoma chat --resume ${forkId}`,
        );
      }
    }
    return finish(options, report, out, failed ? ExitCode.failure : ExitCode.ok);
  } finally {
    history.close();
  }
}

function finish(
  options: RewindCommandOptions,
  report: Record<string, unknown>,
  lines: readonly string[],
  code: number,
): number {
  if (options.json) process.stdout.write(`${toTerminalSafeJson(report)}\n`);
  else (code === ExitCode.ok ? process.stdout : process.stderr).write(`${lines.join("\n")}\n`);
  return code;
}

function listTurns(id: string, turns: ReturnType<typeof checkpointTurns>, json: boolean): number {
  if (json) {
    process.stdout.write(`${toTerminalSafeJson({ conversationId: id, turns })}\n`);
    return ExitCode.ok;
  }
  if (turns.length === 0) {
    process.stdout.write(`Conversation ${safe(id)} has no recorded file changes.\n`);
    return ExitCode.ok;
  }
  for (const turn of turns) {
    const files = turn.paths.length === 0 ? "no file changes" : turn.paths.map(safe).join(", ");
    process.stdout.write(`${safe(`turn ${turn.turn}  ${turn.at}`)}  ${files}\n`);
  }
  return ExitCode.ok;
}
