import { statSync } from "node:fs";
import { createInterface } from "node:readline";
import type { History } from "@xzatoma/persistence";
import { openRuntimeHistory, type RuntimeConfig } from "@xzatoma/runtime";
import { toTerminalSafeLine } from "../render/terminal-safe.js";
import { UsageError } from "../usage-error.js";
import { conversationPlace, realDirectory } from "./conversation-place.js";
import { projectConversations } from "./recent-conversations.js";
import { pickConversation, type PickerTerminal } from "./resume-picker.js";

/** Which conversation `chat` continues: `--resume ID`, `--resume` (pick one), `--continue`. */
export interface ResumeRequest {
  /** An id or unique prefix, or true: pick one of this project's in the terminal. */
  readonly resume?: string | true;
  /** The newest conversation of this project. */
  readonly continueLatest?: boolean;
  /** `--workspace` was given: a conversation from elsewhere continues there unasked. */
  readonly explicitWorkspace: boolean;
}

/** The conversation to continue and the workspace it continues in. */
export interface ResumeTarget {
  readonly id: string;
  readonly workspace: string;
  /** The workspace it worked in before, when it now continues in another one. */
  readonly movedFrom?: string;
}

/** The person picked no conversation, or would not move one: chat does not start. */
export class ResumeCancelledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ResumeCancelledError";
  }
}

const isDirectory = (directory: string) => {
  try {
    return statSync(directory).isDirectory();
  } catch {
    return false;
  }
};

/** Asks one line on the terminal; undefined at the end of input or Ctrl-C. */
async function ask(terminal: PickerTerminal, prompt: string): Promise<string | undefined> {
  const rl = createInterface({ input: terminal.input, output: terminal.output, terminal: true });
  try {
    return await new Promise<string | undefined>((resolve) => {
      rl.once("close", () => resolve(undefined));
      rl.once("SIGINT", () => {
        terminal.output.write("\n");
        resolve(undefined);
      });
      rl.question(prompt, (answer) => resolve(answer));
    });
  } finally {
    rl.close();
  }
}

/**
 * Finds the conversation `chat` continues and where. `--continue` takes this project's newest
 * (the project is the workspace, as each turn's checkpoints record it); `--resume` without an
 * id offers this project's recent ones in a picker, which needs a terminal. A conversation
 * that worked in another directory moves only with a yes (or `--workspace`): in a terminal
 * the person chooses to continue it here, there, or not at all; without one, chat stops
 * with what to do. `terminal` is undefined when standard input or output is not a terminal.
 */
export async function resolveResumeTarget(
  request: ResumeRequest,
  context: {
    readonly config: RuntimeConfig;
    readonly workspace: string;
    readonly terminal: PickerTerminal | undefined;
  },
): Promise<ResumeTarget> {
  const flag = request.continueLatest ? "--continue" : "--resume";
  if (!context.config.persistence.enabled)
    throw new UsageError(`${flag}: history is turned off (persistence.enabled: false).`);
  const here = realDirectory(context.workspace);
  const dataDir = context.config.persistence.data_dir;
  const history: History = openRuntimeHistory(context.config.persistence.db_path);
  let id: string;
  try {
    if (typeof request.resume === "string") {
      // Unknown ids are the runtime's to report, with the id it could not find.
      id = history.getConversation(request.resume)?.id ?? request.resume;
    } else {
      const noneHere = `no saved conversation in ${toTerminalSafeLine(here)} yet; 'xzatoma history list' shows all of them, and 'xzatoma chat --resume ID' continues one.`;
      if (request.continueLatest) {
        const latest = projectConversations(history, dataDir, here, 1)[0];
        if (!latest) throw new UsageError(`--continue: ${noneHere}`);
        id = latest.record.id;
      } else {
        if (!context.terminal)
          throw new UsageError(
            "--resume without an id picks from this project's conversations, which needs a terminal; give the id ('xzatoma history list' shows them) or use --continue for the newest.",
          );
        const choices = projectConversations(history, dataDir, here, 10);
        if (choices.length === 0) throw new UsageError(`--resume: ${noneHere}`);
        const picked = await pickConversation(choices, context.terminal);
        if (picked === undefined) throw new ResumeCancelledError("No conversation picked.");
        id = picked;
      }
    }
  } finally {
    history.close();
  }
  const before = conversationPlace(dataDir, id).workspace;
  if (before === undefined || before === here) return { id, workspace: context.workspace };
  if (request.explicitWorkspace) return { id, workspace: context.workspace, movedFrom: before };
  const there = toTerminalSafeLine(before);
  const herePrinted = toTerminalSafeLine(here);
  if (!context.terminal)
    throw new UsageError(
      `${flag}: conversation ${toTerminalSafeLine(id)} worked in ${there}, not in ${herePrinted}. Run chat from there, or pass --workspace DIR to continue it in DIR (its files stay where they are).`,
    );
  const thereExists = isDirectory(before);
  context.terminal.output.write(
    `Conversation ${toTerminalSafeLine(id)} worked in ${there}, not here (${herePrinted}).\n`,
  );
  for (;;) {
    const answer = (
      await ask(
        context.terminal,
        thereExists
          ? "Continue it [h]ere (the workspace moves; its files stay there), [t]here, or [c]ancel? "
          : "That directory is gone. Continue it [h]ere (the workspace moves), or [c]ancel? ",
      )
    )
      ?.trim()
      .toLowerCase();
    if (answer === "h" || answer === "here")
      return { id, workspace: context.workspace, movedFrom: before };
    if (thereExists && (answer === "t" || answer === "there")) return { id, workspace: before };
    if (answer === undefined || answer === "c" || answer === "cancel" || answer === "")
      throw new ResumeCancelledError("Nothing resumed; the conversation stays where it was.");
  }
}
