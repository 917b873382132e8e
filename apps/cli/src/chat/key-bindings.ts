import {
  deleteBackward,
  deleteForward,
  deleteToLineEnd,
  deleteToLineStart,
  deleteWordBackward,
  moveHorizontally,
  moveToLineEdge,
  type InputBuffer,
} from "./input-buffer.js";

/** What node:readline's keypress parser reports for a key. */
export interface Key {
  readonly sequence?: string;
  readonly name?: string;
  readonly ctrl?: boolean;
  readonly meta?: boolean;
  readonly shift?: boolean;
  readonly code?: string;
}

/** What a key does at the chat's prompt. */
export type KeyAction =
  | { readonly kind: "interrupt" }
  /** Ctrl-D: the end of the input on an empty prompt, else Delete. */
  | { readonly kind: "end" }
  | { readonly kind: "submit" }
  | { readonly kind: "newline" }
  | { readonly kind: "complete" }
  | { readonly kind: "dismiss" }
  | { readonly kind: "vertical"; readonly direction: -1 | 1 }
  | { readonly kind: "clear-screen" }
  /** Ctrl-Z: stop the process, as the shell's job control expects. */
  | { readonly kind: "suspend" }
  | { readonly kind: "insert"; readonly text: string }
  | { readonly kind: "edit"; readonly apply: (buffer: InputBuffer) => InputBuffer };

const edit = (apply: (buffer: InputBuffer) => InputBuffer): KeyAction => ({ kind: "edit", apply });

/** Edits by the name of a key pressed with Ctrl, as in a shell (Emacs keys). */
const CONTROL_EDITS: Readonly<Record<string, KeyAction>> = {
  a: edit((buffer) => moveToLineEdge(buffer, "start")),
  e: edit((buffer) => moveToLineEdge(buffer, "end")),
  b: edit((buffer) => moveHorizontally(buffer, -1)),
  f: edit((buffer) => moveHorizontally(buffer, 1)),
  u: edit(deleteToLineStart),
  k: edit(deleteToLineEnd),
  w: edit(deleteWordBackward),
  p: { kind: "vertical", direction: -1 },
  n: { kind: "vertical", direction: 1 },
  l: { kind: "clear-screen" },
  z: { kind: "suspend" },
  c: { kind: "interrupt" },
  d: { kind: "end" },
};

/** Keys by name, without modifiers. */
const NAMED: Readonly<Record<string, KeyAction>> = {
  // Enter sends CR; Ctrl-J sends LF, which readline names `enter`.
  return: { kind: "submit" },
  enter: { kind: "newline" },
  tab: { kind: "complete" },
  escape: { kind: "dismiss" },
  up: { kind: "vertical", direction: -1 },
  down: { kind: "vertical", direction: 1 },
  backspace: edit(deleteBackward),
  delete: edit(deleteForward),
  left: edit((buffer) => moveHorizontally(buffer, -1)),
  right: edit((buffer) => moveHorizontally(buffer, 1)),
  home: edit((buffer) => moveToLineEdge(buffer, "start")),
  end: edit((buffer) => moveToLineEdge(buffer, "end")),
};

/**
 * The action of a key outside a paste; undefined for a key that does nothing. Alt-Enter
 * (ESC CR) and Shift-Enter where the terminal reports it (`CSI 13;2u`, the kitty keyboard
 * protocol) insert a newline, as Ctrl-J does; Alt-Backspace deletes a word.
 */
export function keyAction(character: string | undefined, key: Key): KeyAction | undefined {
  const name = key.name ?? "";
  if (key.code === "[13;2u" || (key.meta && name === "return")) return { kind: "newline" };
  if (key.meta && name === "backspace") return edit(deleteWordBackward);
  if (key.ctrl) return CONTROL_EDITS[name];
  if (!key.meta && NAMED[name]) return NAMED[name];
  if (character !== undefined && !key.meta && character >= " " && !character.startsWith("\x1b"))
    return { kind: "insert", text: character };
  return undefined;
}
