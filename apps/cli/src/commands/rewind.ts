import { homedir } from "node:os";
import { loadConfig, openRuntimeHistory } from "@xzatoma/runtime";
import { FLAG_MAPPINGS } from "../config/flag-mapping.js";
import { ExitCode } from "../exit-codes.js";
import { toTerminalSafeJson, toTerminalSafeLine } from "../render/terminal-safe.js";
import {
  rewindConversation,
  rewindTurns,
  type RewindTurns,
} from "../rewind/rewind-conversation.js";
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
    const turns = rewindTurns(dataDir, conversation.id, conversation.messages);
    if (options.list) return listTurns(conversation.id, turns, options.json === true);
    const lastTurn = turns.lastTurn;
    const toTurn = options.to ?? lastTurn;
    if (toTurn < 1 || toTurn > lastTurn) {
      throw new UsageError(
        lastTurn === 0
          ? `Conversation ${conversation.id} has no turns to rewind.`
          : `--to ${toTurn}: conversation ${conversation.id} has turns 1 to ${lastTurn}.`,
      );
    }
    const rewound = rewindConversation({
      history,
      dataDir,
      conversationId: conversation.id,
      toTurn,
      side: options.codeOnly ? "code" : options.chatOnly ? "chat" : "both",
      dryRun: options.dryRun === true,
      force: options.force === true,
      forceHint: "run it again with --force",
    });
    const lines = [...rewound.lines];
    if (rewound.chat) {
      const { forkId, messagesKept } = rewound.chat;
      const messages = `${messagesKept} message${messagesKept === 1 ? "" : "s"}`;
      lines.push(
        forkId === undefined
          ? `Would continue the conversation as a fork with its first ${messages}; ${conversation.id} stays as it is.`
          : `The conversation continues as ${forkId} (its first ${messages}); ${conversation.id} stays in history. Resume it: xzatoma chat --resume ${forkId}`,
      );
    }
    const code = rewound.status === "done" ? ExitCode.ok : ExitCode.failure;
    if (options.json) process.stdout.write(`${toTerminalSafeJson(rewound.report)}\n`);
    else (code === ExitCode.ok ? process.stdout : process.stderr).write(`${lines.join("\n")}\n`);
    return code;
  } finally {
    history.close();
  }
}

function listTurns(id: string, turns: RewindTurns, json: boolean): number {
  if (json) {
    process.stdout.write(`${toTerminalSafeJson({ conversationId: id, turns: turns.recorded })}\n`);
    return ExitCode.ok;
  }
  if (turns.recorded.length === 0) {
    process.stdout.write(`Conversation ${safe(id)} has no recorded file changes.\n`);
    return ExitCode.ok;
  }
  for (const turn of turns.recorded) {
    const files = turn.paths.length === 0 ? "no file changes" : turn.paths.map(safe).join(", ");
    process.stdout.write(`${safe(`turn ${turn.turn}  ${turn.at}`)}  ${files}\n`);
  }
  return ExitCode.ok;
}
