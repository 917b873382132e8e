/** `/rewind [N] [code|chat|both] [--force]` in chat, parsed. */
export interface RewindArguments {
  readonly kind: "rewind";
  /** Rewind to before this turn; undefined lists the turns. */
  readonly turn: number | undefined;
  /** What to put back: the files, the conversation, or both (the default). */
  readonly side: "both" | "code" | "chat";
  /** Overwrite files changed since the turn, keeping a copy of each. */
  readonly force: boolean;
}

/** The usage line of `/rewind`. */
export const REWIND_USAGE = "Usage: /rewind [TURN] [code|chat|both] [--force]";

const SIDES: Record<string, RewindArguments["side"]> = {
  code: "code",
  "--code-only": "code",
  chat: "chat",
  "--chat-only": "chat",
  both: "both",
};

/**
 * Parses the words after `/rewind`: a turn number, what to put back (`code`, `chat` or
 * `both`; the CLI's `--code-only` and `--chat-only` are understood too) and `--force`, in
 * any order. A string is the usage message for anything else.
 */
export function parseRewindArguments(argument: string): RewindArguments | string {
  let turn: number | undefined;
  let side: RewindArguments["side"] | undefined;
  let force = false;
  for (const word of argument.split(/\s+/).filter((part) => part !== "")) {
    const lower = word.toLowerCase();
    if (/^\d+$/.test(word) && turn === undefined) {
      turn = Number(word);
      if (turn < 1) return `${REWIND_USAGE} (turns count from 1)`;
    } else if (Object.hasOwn(SIDES, lower) && side === undefined) {
      side = SIDES[lower];
    } else if ((lower === "--force" || lower === "force") && !force) {
      force = true;
    } else {
      return `${REWIND_USAGE} ('${word}' is not a turn, code, chat, both or --force)`;
    }
  }
  if (turn === undefined && (side !== undefined || force))
    return `${REWIND_USAGE} (name the turn to rewind to; /rewind alone lists them)`;
  return { kind: "rewind", turn, side: side ?? "both", force };
}
