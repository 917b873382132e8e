import { openRuntimeHistory, type AgentRuntime } from "@xzatoma/runtime";
import { toTerminalSafeLine } from "../render/terminal-safe.js";
import { forkWholeConversation } from "../rewind/fork-conversation.js";
import { rewindConversation, rewindTurns, type RewindTurn } from "../rewind/rewind-conversation.js";
import type { RewindArguments } from "./rewind-arguments.js";

const safe = (text: string) => toTerminalSafeLine(text);

/** Chat's `/rewind` and `/fork`: branches of the conversation the chat is in. */
export interface ConversationBranching {
  /** `/rewind` lists the turns; `/rewind N [code|chat|both]` puts things back. */
  rewind(command: RewindArguments): string;
  /** `/fork` (and `chat --resume ID --fork`): the chat continues in a copy of its conversation. */
  fork(): string;
}

/**
 * `/rewind` and `/fork` for a chat's runtime, through the same rewind as `xzatoma rewind`
 * (`rewind/rewind-conversation.ts`). When the conversation side is put back or forked, the
 * chat goes on in the new conversation (`runtime.resume`); the original stays in history.
 */
export function createConversationBranching(runtime: AgentRuntime): ConversationBranching {
  const dataDir = runtime.config.persistence.data_dir;
  const withHistory = <T>(use: (history: ReturnType<typeof openRuntimeHistory>) => T): T => {
    const history = openRuntimeHistory(runtime.config.persistence.db_path);
    try {
      return use(history);
    } finally {
      history.close();
    }
  };
  const notStored = (what: string) =>
    runtime.config.persistence.enabled
      ? `Nothing to ${what} yet: this conversation has no stored turn.`
      : `Nothing to ${what}: history is turned off (persistence.enabled is false).`;
  return {
    rewind(command) {
      const id = runtime.conversationId;
      if (id === undefined) return notStored("rewind");
      return withHistory((history) => {
        const conversation = history.getConversation(id);
        if (!conversation) return notStored("rewind");
        const { turns, lastTurn } = rewindTurns(dataDir, conversation.id, conversation.messages);
        if (lastTurn === 0) return notStored("rewind");
        if (command.turn === undefined) return describeTurns(turns);
        if (command.turn > lastTurn)
          return `/rewind ${command.turn}: this conversation has turns 1 to ${lastTurn} (/rewind lists them).`;
        const rewound = rewindConversation({
          history,
          dataDir,
          conversationId: conversation.id,
          toTurn: command.turn,
          side: command.side,
          force: command.force,
          forceHint: `type /rewind ${command.turn} ${command.side} --force`,
        });
        const lines = [...rewound.lines];
        if (rewound.status === "stopped") return lines.join("\n");
        if (rewound.chat?.forkId !== undefined) {
          runtime.resume(rewound.chat.forkId);
          const kept = rewound.chat.messagesKept;
          lines.push(
            `The conversation is back to before turn ${command.turn} (${kept} message${kept === 1 ? "" : "s"} kept) and continues as ${rewound.chat.forkId}; ${conversation.id} stays in history as it was.`,
          );
        } else {
          lines.push("The conversation goes on as it is.");
        }
        return lines.join("\n");
      });
    },
    fork() {
      const id = runtime.conversationId;
      if (id === undefined) return notStored("fork");
      return withHistory((history) => {
        if (!history.getConversation(id)) return notStored("fork");
        const forkId = forkWholeConversation(history, dataDir, id);
        runtime.resume(forkId);
        return `This chat continues as ${forkId}, a fork of ${id}; ${id} stays in history as it was (xzatoma chat --resume ${id}).`;
      });
    },
  };
}

/** The turns with the files each changed, and how to rewind. */
function describeTurns(turns: readonly RewindTurn[]): string {
  const lines = ["Turns of this conversation (the files each changed):"];
  for (const turn of turns) {
    const prompt = turn.prompt === undefined ? "" : `  "${clip(turn.prompt, 50)}"`;
    const files = turn.paths.length === 0 ? "no file changes" : turn.paths.map(safe).join(", ");
    lines.push(`  turn ${turn.turn}${safe(prompt)}  ${files}`);
  }
  lines.push(
    "/rewind N puts the files and the conversation back to before turn N; /rewind N code the files only, /rewind N chat the conversation only.",
  );
  return lines.join("\n");
}

function clip(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
