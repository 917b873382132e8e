import path from "node:path";
import {
  applyRewind,
  checkpointTurns,
  createBlobStore,
  describeState,
  planRewind,
  readCheckpointLines,
  type CheckpointTurn,
  type History,
  type RewindPlan,
  type RewindResult,
  type StoredMessage,
} from "@xzatoma/persistence";
import { toTerminalSafeLine } from "../render/terminal-safe.js";
import { forkConversation, messagesBeforeTurn } from "./fork-conversation.js";

const safe = (text: string) => toTerminalSafeLine(text);
const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`;

/** `: a, b, c` for a few paths; past ten, the first ten and how many more. */
function namePaths(paths: readonly string[]): string {
  if (paths.length === 0) return "";
  const shown = paths.slice(0, 10).map(safe).join(", ");
  return `: ${shown}${paths.length > 10 ? ` and ${paths.length - 10} more` : ""}`;
}

/** What a rewind puts back: the workspace's files, the conversation, or both. */
export type RewindSide = "both" | "code" | "chat";

/** A turn of a conversation as a rewind offers it. */
export interface RewindTurn {
  readonly turn: number;
  /** When it started (from the checkpoints), if it changed anything. */
  readonly at?: string;
  /** The workspace-relative paths it changed. */
  readonly paths: readonly string[];
  /** The person's message the turn answered (its first line). */
  readonly prompt?: string;
}

/** The turns of a stored conversation, with the files each changed. */
export interface RewindTurns {
  /** The turns from the first to the last, with or without file changes. */
  readonly turns: readonly RewindTurn[];
  /** The last turn's number: the checkpoints' or the stored answers', whichever is later. */
  readonly lastTurn: number;
  /** The checkpoints' own view (what `xzatoma rewind --list --json` prints). */
  readonly recorded: readonly CheckpointTurn[];
}

/** Reads the turns of `conversationId` from its checkpoints and its messages. */
export function rewindTurns(
  dataDir: string,
  conversationId: string,
  messages: readonly StoredMessage[],
): RewindTurns {
  const recorded = checkpointTurns(
    readCheckpointLines(path.join(dataDir, "checkpoints"), conversationId),
  );
  const prompts: (string | undefined)[] = [];
  let lastPrompt: string | undefined;
  for (const stored of messages) {
    const message = stored.message as { role: string; content?: unknown };
    if (message.role === "user" && typeof message.content === "string") {
      lastPrompt = message.content.split("\n")[0]?.trim();
    } else if (message.role === "assistant") {
      prompts.push(lastPrompt);
    }
  }
  const lastTurn = Math.max(recorded.at(-1)?.turn ?? 0, prompts.length);
  const turns: RewindTurn[] = [];
  for (let turn = 1; turn <= lastTurn; turn++) {
    const found = recorded.find((candidate) => candidate.turn === turn);
    const prompt = prompts[turn - 1];
    turns.push({
      turn,
      ...(found ? { at: found.at } : {}),
      paths: found?.paths ?? [],
      ...(prompt ? { prompt } : {}),
    });
  }
  return { turns, lastTurn, recorded };
}

/** Options of {@link rewindConversation}. */
export interface RewindConversationOptions {
  readonly history: History;
  readonly dataDir: string;
  /** The stored conversation (its full id). */
  readonly conversationId: string;
  /** Rewind to before this turn: 1 to the last turn (the caller checks the range). */
  readonly toTurn: number;
  readonly side: RewindSide;
  /** Say what would change; change nothing. */
  readonly dryRun?: boolean;
  /** Overwrite paths the person changed since, keeping a copy of each first. */
  readonly force?: boolean;
  /** How the person asks for the rewind again with force, for the conflict message. */
  readonly forceHint: string;
}

/** What {@link rewindConversation} did, for a report and for the person. */
export interface ConversationRewind {
  /**
   * `done` (or planned, with `dryRun`); `stopped`: conflicts stopped it before anything
   * changed, conversation included; `failed`: some paths could not be put back.
   */
  readonly status: "done" | "stopped" | "failed";
  /** The JSON report of `xzatoma rewind --json`. */
  readonly report: Record<string, unknown>;
  /** What happened to the workspace, in lines for a terminal (escaped). */
  readonly lines: readonly string[];
  /** The paths that stopped the rewind, when it stopped. */
  readonly conflicts: readonly { readonly path: string; readonly reason: string }[];
  /** The conversation's side: the fork made (none with `dryRun`), the messages it keeps. */
  readonly chat?: { readonly forkId?: string; readonly messagesKept: number };
}

/**
 * Puts the workspace, the conversation or both back to where they were before turn
 * `toTurn` of a stored conversation: the one rewind of `xzatoma rewind` and chat's
 * `/rewind`. The workspace side plans first; a path the person changed after the agent's
 * turn is a conflict, and conflicts stop the whole rewind before anything changes, unless
 * `force` (which copies the person's versions to the data directory first). The
 * conversation side never changes the original: its messages before the turn are copied
 * into a fork, with the checkpoints of the turns before it.
 */
export function rewindConversation(options: RewindConversationOptions): ConversationRewind {
  const { history, dataDir, conversationId, toTurn } = options;
  const checkpoints = path.join(dataDir, "checkpoints");
  const report: Record<string, unknown> = {
    conversationId,
    toTurn,
    dryRun: options.dryRun === true,
  };
  const lines: string[] = [];
  let failed = false;
  if (options.side !== "chat") {
    const indexLines = readCheckpointLines(checkpoints, conversationId);
    const workspace = checkpointTurns(indexLines).find((turn) => turn.turn >= toTurn)?.workspace;
    const plan: RewindPlan | undefined =
      workspace === undefined ? undefined : planRewind(indexLines, toTurn, workspace);
    if (plan === undefined) {
      lines.push(
        `No file changes were recorded from turn ${toTurn} on; the workspace stays as it is.`,
      );
    } else {
      const conflicts = plan.conflicts.map((conflict) => ({
        path: conflict.path,
        reason: conflict.reason,
      }));
      report.workspace = plan.workspace;
      report.conflicts = conflicts;
      report.unrestorable = plan.unrestorable.map((change) => change.path);
      if (plan.conflicts.length > 0 && !options.force) {
        report.restored = [];
        return {
          status: "stopped",
          report,
          conflicts,
          lines: [
            `Rewind stopped: ${plan.conflicts.length} path${plan.conflicts.length === 1 ? " was" : "s were"} changed by someone other than the agent, and nothing was changed:`,
            ...conflicts.map((conflict) => `  ${safe(conflict.path)}: ${safe(conflict.reason)}`),
            `Keep your changes and leave the rewind, or ${options.forceHint} (your versions are copied to the data directory first).`,
          ],
        };
      }
      const planned = [...plan.changes, ...(options.force ? plan.conflicts : [])];
      report.changes = planned.map((change) => ({
        path: change.path,
        from: describeState(change.current),
        to: describeState(change.target),
      }));
      if (options.dryRun) {
        lines.push(`Would put back ${plural(planned.length, "path")} in ${safe(plan.workspace)}:`);
        for (const change of planned) {
          lines.push(
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
            directory: path.join(checkpoints, "kept", `${conversationId}-${stamp}`),
          },
        );
        report.restored = result.restored;
        report.failed = result.failed;
        report.kept = result.kept;
        failed = result.failed.length > 0;
        lines.push(
          `Put back ${plural(result.restored.length, "path")} in ${safe(plan.workspace)} as they were before turn ${toTurn}${namePaths(result.restored)}.`,
        );
        for (const kept of result.kept)
          lines.push(`  your ${safe(kept.path)} is kept at ${safe(kept.copy)}`);
        for (const failure of result.failed)
          lines.push(`  could not put back ${safe(failure.path)}: ${safe(failure.reason)}`);
      }
      for (const change of plan.unrestorable) {
        lines.push(
          `  cannot put back ${safe(change.path)}: it was over the checkpoint size limit, so only its hash was recorded`,
        );
      }
    }
  }
  let chat: ConversationRewind["chat"];
  if (options.side !== "code") {
    const conversation = history.getConversation(conversationId);
    if (!conversation) throw new Error(`No stored conversation '${conversationId}'.`);
    const keep = messagesBeforeTurn(conversation.messages, toTurn);
    report.messagesKept = keep;
    if (options.dryRun) {
      chat = { messagesKept: keep };
    } else {
      const forkId = forkConversation(history, dataDir, conversationId, {
        keep,
        toTurn,
        title: `${conversation.title} (rewound before turn ${toTurn})`,
      });
      report.forkId = forkId;
      chat = { forkId, messagesKept: keep };
    }
  }
  return {
    status: failed ? "failed" : "done",
    report,
    lines,
    conflicts: [],
    ...(chat ? { chat } : {}),
  };
}
