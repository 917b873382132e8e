import { createInterface, type Interface } from "node:readline";
import { createSpinner } from "../render/spinner.js";
import { createLineEditor } from "./line-editor.js";
import type { PromptHistory } from "./prompt-history.js";
import type { SlashMenuEntry } from "./slash-menu.js";

/**
 * Where the chat reads what the person types and writes what it shows: the line editor in
 * a terminal, node:readline for piped input. The REPL (`repl.ts`) speaks only to this.
 */
export interface ChatInput {
  /** Writes text (already safe for the terminal) to the output. */
  print(text: string): void;
  /** Shows `prompt` and waits for the next message. */
  prompt(prompt: string): void;
  /** Asks one question; undefined when `signal` aborts or the input ends. */
  question(prompt: string, prefill: string, signal?: AbortSignal): Promise<string | undefined>;
  /** A spinner while the model works; undefined stops it. */
  setActivity(label: string | undefined): void;
  /** Redraws what depends on the chat's state (the status line). */
  refresh(): void;
  /** Ends the input: `onEnd` follows. */
  close(): void;
  readonly closed: boolean;
}

/** Options of {@link createChatInput}. */
export interface ChatInputOptions {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WriteStream | NodeJS.WritableStream;
  readonly color: boolean;
  readonly commands: readonly SlashMenuEntry[];
  readonly history?: PromptHistory;
  readonly status?: () => string;
  readonly onLine: (line: string) => void;
  /** Whether the line editor may send a message now (see `LineEditorOptions.canSend`). */
  readonly canSend?: () => boolean;
  readonly onInterrupt: () => void;
  /** The input ended (Ctrl-D, the end of a pipe, `close()`); called once. */
  readonly onEnd: () => void;
}

/**
 * The line editor when both ends are a terminal, so a person types: several lines, a
 * paste as one message, the slash menu, history and the status line. Otherwise readline:
 * each line of a pipe is a message, as a script expects.
 */
export function createChatInput(options: ChatInputOptions): ChatInput {
  const input = options.input as NodeJS.ReadStream;
  const output = options.output as NodeJS.WriteStream;
  if (input.isTTY && output.isTTY && typeof input.setRawMode === "function") {
    return editorInput(input, output, options);
  }
  return readlineInput(options);
}

function editorInput(
  input: NodeJS.ReadStream,
  output: NodeJS.WriteStream,
  options: ChatInputOptions,
): ChatInput {
  let closed = false;
  let restoreStderr: () => void = () => undefined;
  const close = () => {
    if (closed) return;
    closed = true;
    editor.close();
    restoreStderr();
    options.onEnd();
  };
  const editor = createLineEditor({
    input,
    output,
    color: options.color,
    commands: options.commands,
    ...(options.history ? { history: options.history } : {}),
    ...(options.status ? { status: options.status } : {}),
    onLine: options.onLine,
    ...(options.canSend ? { canSend: options.canSend } : {}),
    onInterrupt: options.onInterrupt,
    onEnd: close,
  });
  restoreStderr = routeStderr((text) => editor.print(text));
  return {
    print: (text) => editor.print(text),
    prompt: (prompt) => editor.setPrompt(prompt),
    question: (prompt, prefill, signal) => editor.question(prompt, prefill, signal),
    setActivity: (label) => editor.setActivity(label),
    refresh: () => editor.refresh(),
    close,
    get closed() {
      return closed;
    },
  };
}

/**
 * While the line editor draws the bottom of the terminal, what is written to standard error
 * on the same terminal (`--verbose`'s trace, a notice of an MCP server that stopped) goes
 * above it through `print`, as Ink's console patch does, instead of into the prompt.
 * Standard error that is not a terminal is left alone. Returns the undo.
 */
function routeStderr(print: (text: string) => void): () => void {
  const stderr = process.stderr;
  if (!stderr.isTTY) return () => undefined;
  const original = stderr.write;
  stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    print(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    const callback = rest.find((value) => typeof value === "function") as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof stderr.write;
  return () => {
    stderr.write = original;
  };
}

/**
 * Asks one question with readline. Resolves undefined when the input ends (a pipe at its
 * end) or `signal` aborts it: the caller treats that as a refusal.
 */
function readlineQuestion(
  rl: Interface,
  prompt: string,
  prefill: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    if ((rl as Interface & { closed?: boolean }).closed || signal?.aborted) {
      resolve(undefined);
      return;
    }
    const onEnd = () => {
      rl.off("close", onEnd);
      signal?.removeEventListener("abort", onEnd);
      resolve(undefined);
    };
    rl.once("close", onEnd);
    signal?.addEventListener("abort", onEnd, { once: true });
    // readline withdraws the question itself when the signal aborts, so the next can be asked.
    rl.question(prompt, signal ? { signal } : {}, (answer) => {
      rl.off("close", onEnd);
      signal?.removeEventListener("abort", onEnd);
      resolve(answer);
    });
    if (prefill !== "") rl.write(prefill);
  });
}

function readlineInput(options: ChatInputOptions): ChatInput {
  const output = options.output;
  const terminal = Boolean((output as NodeJS.WriteStream).isTTY);
  const rl = createInterface({ input: options.input, output, terminal });
  const spinner = createSpinner(output, terminal);
  let closed = false;
  let asking = 0;
  rl.on("SIGINT", options.onInterrupt);
  rl.on("close", () => {
    closed = true;
    options.onEnd();
  });
  rl.on("line", (line) => {
    // The answer to a question goes to the question only.
    if (asking > 0) return;
    options.onLine(line);
  });
  return {
    print: (text) => output.write(text),
    prompt(prompt) {
      if (closed) return;
      rl.setPrompt(prompt);
      rl.prompt();
    },
    async question(prompt, prefill, signal) {
      spinner.stop();
      asking += 1;
      try {
        return await readlineQuestion(rl, prompt, prefill, signal);
      } finally {
        asking -= 1;
      }
    },
    setActivity(label) {
      if (label === undefined) spinner.stop();
      else spinner.start(label);
    },
    refresh: () => undefined,
    close: () => rl.close(),
    get closed() {
      return closed;
    },
  };
}
