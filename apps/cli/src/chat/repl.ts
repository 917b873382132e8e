import type { AgentEvent, ApprovalDecision, ApprovalRequest } from "@xzatoma/core";
import { editableField, withEditedField } from "../render/approval-edit.js";
import { formatApprovalRequest } from "../render/approval-view.js";
import { preloadHighlighter } from "../render/code-highlight.js";
import { createMarkdownStream } from "../render/markdown-stream.js";
import { summariseInput } from "../render/summarise-input.js";
import { describeRefusal } from "../render/refusal-words.js";
import { describeToolFailure } from "../render/tool-failure.js";
import { describeSubagent } from "../render/text-renderer.js";
import { toTerminalSafe, toTerminalSafeLine } from "../render/terminal-safe.js";
import type { ChatEngine } from "./chat-engine.js";
import { createChatInput, type ChatInput } from "./chat-input.js";
import type { PromptHistory } from "./prompt-history.js";
import { slashMenuEntries } from "./slash-menu.js";
import { formatStatusLine, parseContextLine } from "./status-line.js";
import type { ConversationBranching } from "./rewind-command.js";
import { formatPrompt, parseSlashCommand, SLASH_HELP } from "./slash-command.js";

/** Options of {@link runRepl}. */
export interface ReplOptions {
  readonly engine: ChatEngine;
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WriteStream | NodeJS.WritableStream;
  readonly color: boolean;
  /** Prints every event as JSON to this function (`--verbose`). */
  readonly trace?: (event: AgentEvent) => void;
  readonly banner?: string;
  /** Messages typed in earlier sessions, recalled with Up (see `prompt-history.ts`). */
  readonly history?: PromptHistory;
  /** `/rewind` and `/fork` (see `rewind-command.ts`); without it they say they are not offered. */
  readonly branching?: ConversationBranching;
}

/**
 * Asks one question. Resolves undefined, an answer of nothing, when the input ends (a pipe
 * at its end, Ctrl-D) or `signal` aborts it (Ctrl-C): the caller treats that as a refusal.
 */
function question(
  rl: ChatInput,
  prompt: string,
  prefill = "",
  signal?: AbortSignal,
): Promise<string | undefined> {
  return rl.question(prompt, prefill, signal);
}

/**
 * The interactive chat loop. Ctrl-C cancels the running turn and keeps the session; at an
 * approval question it refuses the call and cancels the turn; at an idle prompt a second
 * Ctrl-C (or Ctrl-D, or `exit`) leaves. Ctrl-D at a question refuses the call and leaves
 * once the turn has ended, so it is recorded. Resolves when the session ends.
 * Text from the model, tools and the provider is escaped for the terminal before it is
 * printed (see `render/terminal-safe.ts`); only the REPL's own styling reaches it raw.
 */
export async function runRepl(options: ReplOptions): Promise<void> {
  const { engine, output, color } = options;
  const write = (text: string) => rl.print(text);
  /** Prints text the REPL did not write itself (answers, notices, errors) escaped. */
  const say = (text: string) => write(`${toTerminalSafe(text)}\n`);
  const dim = (text: string) => (color ? `\x1b[2m${text}\x1b[22m` : text);
  const red = (text: string) => (color ? `\x1b[31m${text}\x1b[39m` : text);
  // The input's events go to the loop at the end of this function, which sets them.
  const on = {
    line: (_line: string): void => undefined,
    interrupt: (): void => undefined,
    end: (): void => undefined,
    canSend: (): boolean => true,
  };
  /** What the status line shows besides the state: tokens, and the context once known. */
  let sessionTokens = 0;
  let contextUsed: { tokens: number; max: number } | undefined;
  const readContext = () => {
    try {
      contextUsed = parseContextLine(engine.context()) ?? contextUsed;
    } catch {
      // The status line goes without it.
    }
  };
  readContext();
  const rl: ChatInput = createChatInput({
    input: options.input,
    output,
    color,
    commands: slashMenuEntries(SLASH_HELP),
    ...(options.history ? { history: options.history } : {}),
    status: () =>
      formatStatusLine(engine.state(), {
        totalTokens: sessionTokens,
        ...(contextUsed ? { contextTokens: contextUsed.tokens, contextMax: contextUsed.max } : {}),
      }),
    onLine: (line) => on.line(line),
    canSend: () => on.canSend(),
    onInterrupt: () => on.interrupt(),
    onEnd: () => on.end(),
  });
  const spinner = {
    start: (label: string) => rl.setActivity(label),
    stop: () => rl.setActivity(undefined),
  };
  let running: AbortController | undefined;
  let confirming = false;
  /** Withdraws the approval question on screen (Ctrl-C): the call is refused. */
  let refuseQuestion: AbortController | undefined;
  let lastInterrupt = 0;
  let closed = false;

  // One question at a time: readline drops a second question while one is pending, so
  // calls that need a yes at once (parallel subagents) wait their turn here.
  let confirmations: Promise<unknown> = Promise.resolve();
  engine.setConfirm((request: ApprovalRequest): Promise<ApprovalDecision> => {
    const asked = confirmations.then(() => confirm(request));
    confirmations = asked.catch(() => undefined);
    return asked;
  });

  async function confirm(request: ApprovalRequest): Promise<ApprovalDecision> {
    // A question still waiting when the turn was cancelled (Ctrl-C) is not asked.
    if (running?.signal.aborted) return { approved: false, reason: "the user cancelled the turn" };
    spinner.stop();
    confirming = true;
    refuseQuestion = new AbortController();
    const refused = refuseQuestion.signal;
    try {
      const view = formatApprovalRequest(request, { color });
      write(`\n${view.text}`);
      let choices = view.shortened
        ? "  [a]pprove, [e]dit, [v]iew all, [r]eject? "
        : "  [a]pprove, [e]dit, [r]eject? ";
      for (;;) {
        const answer = (await question(rl, choices, "", refused))?.trim().toLowerCase();
        if (
          answer === undefined ||
          answer === "r" ||
          answer === "reject" ||
          answer === "n" ||
          answer === "no"
        ) {
          return { approved: false, reason: "the user rejected it" };
        }
        if (answer === "a" || answer === "approve" || answer === "y" || answer === "yes")
          return { approved: true, reason: "approved by the user" };
        if (view.shortened && (answer === "v" || answer === "view")) {
          const whole = formatApprovalRequest(request, {
            color,
            previewLines: Infinity,
            previewCharacters: Infinity,
          });
          write(`\n${whole.text}`);
          choices = "  [a]pprove, [e]dit, [r]eject? ";
          continue;
        }
        if (answer === "e" || answer === "edit") {
          // The command line, the path, the URL: plain text, never the call's JSON.
          const field = editableField(request);
          if (field === undefined) {
            write(dim("  This call has no text to edit; approve or reject it.\n"));
            continue;
          }
          if (field.retype)
            write(
              dim(
                `  Its ${field.key} has several lines or characters shown as escapes above, which the line editor cannot show; type it anew.\n`,
              ),
            );
          const edited = await question(rl, `  edit ${field.key}> `, field.value, refused);
          if (edited === undefined || edited.trim() === "")
            return { approved: false, reason: "the user rejected it" };
          return {
            approved: true,
            reason: "edited by the user",
            editedInput: withEditedField(request, field, edited),
          };
        }
      }
    } finally {
      confirming = false;
      refuseQuestion = undefined;
    }
  }

  const render = (event: AgentEvent, markdown: ReturnType<typeof createMarkdownStream>) => {
    options.trace?.(event);
    switch (event.type) {
      case "turn-started":
        spinner.start("thinking…");
        break;
      case "text-delta":
        spinner.stop();
        markdown.write(event.delta);
        break;
      case "tool-call-requested":
        spinner.stop();
        markdown.end();
        write(dim(`→ ${toTerminalSafeLine(event.toolName)} ${summariseInput(event.input, 70)}\n`));
        break;
      case "tool-result":
        if (!event.result.success)
          write(
            red(
              // A refusal in the person's words; the model's instructions stay the model's.
              `  ✗ ${toTerminalSafeLine(event.result.metadata?.["refused"] ? describeRefusal(event.result.error ?? "") : describeToolFailure(event.toolName, event.result.error ?? ""))}\n`,
            ),
          );
        break;
      case "subagent-started":
      case "subagent-finished":
        spinner.stop();
        markdown.end();
        write(dim(`${describeSubagent(event)}\n`));
        break;
      case "usage":
        sessionTokens += event.usage.totalTokens;
        break;
      case "context-pruned":
        write(
          dim(`(context: ${event.dropped} older messages summarised to stay within the window)\n`),
        );
        break;
      case "context-status":
        if (event.level !== "ok")
          write(dim(`(context ${event.level}: ${event.tokens} of ${event.maxTokens} tokens)\n`));
        break;
      case "finished":
        spinner.stop();
        markdown.end();
        break;
      default:
        break;
    }
  };

  /** Reports a failed slash command; the session goes on. */
  const sayError = (error: unknown) => {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    write(
      red(`error${typeof code === "string" ? ` [${code}]` : ""}: ${toTerminalSafe(message)}\n`),
    );
  };

  async function handleLine(line: string): Promise<boolean> {
    const command = parseSlashCommand(line);
    // `/name args` of a custom command is a message: the runtime puts in its prompt.
    const name = /^\/(\S+)/.exec(line.trim())?.[1];
    if (command?.kind === "unknown" && name !== undefined && engine.isCustomCommand(name)) {
      return handlePrompt(line);
    }
    if (command) {
      try {
        return await handleSlashCommand(command);
      } catch (error) {
        sayError(error);
        return true;
      }
    }
    return handlePrompt(line);
  }

  async function handleSlashCommand(
    command: NonNullable<ReturnType<typeof parseSlashCommand>>,
  ): Promise<boolean> {
    switch (command.kind) {
      case "exit":
        return false;
      case "help":
        write(`${SLASH_HELP}\n`);
        break;
      case "mode":
        say(engine.setMode(command.mode));
        break;
      case "approvals":
        say(engine.setApprovalPolicy(command.policy));
        break;
      case "status":
        say(engine.status());
        break;
      case "mcp":
        say(engine.mcp());
        break;
      case "skills":
        say(engine.skills());
        break;
      case "context":
        if (command.summary) {
          running = new AbortController();
          try {
            say(await engine.summarize(running.signal));
          } finally {
            running = undefined;
          }
        } else {
          say(engine.context());
        }
        break;
      case "compact":
        running = new AbortController();
        try {
          say(await engine.compact(command.focus, running.signal));
        } finally {
          running = undefined;
        }
        break;
      case "models":
        say(await engine.listModels());
        break;
      case "model":
        say(await engine.setModel(command.name));
        break;
      case "clear":
        say(engine.clear());
        break;
      case "rewind":
      case "fork":
        say(
          options.branching
            ? command.kind === "fork"
              ? options.branching.fork()
              : options.branching.rewind(command)
            : `/${command.kind} is not offered in this session.`,
        );
        break;
      case "unknown":
        say(command.message);
        break;
    }
    return true;
  }

  async function handlePrompt(line: string): Promise<boolean> {
    if (line.trim() === "") return true;
    running = new AbortController();
    const terminal = output as NodeJS.WriteStream;
    const markdown = createMarkdownStream(
      { write },
      {
        color,
        // One column short of the edge: a line as wide as the screen would leave the
        // cursor waiting to wrap, and the next newline would leave an empty line.
        ...(terminal.isTTY ? { width: () => (terminal.columns || 80) - 1 } : {}),
      },
    );
    try {
      const result = await engine.send(line, {
        signal: running.signal,
        onEvent: (event) => render(event, markdown),
        onNotice: (message) => write(dim(`${toTerminalSafe(message)}\n`)),
      });
      if (result.stopReason === "aborted") write(dim("(cancelled)\n"));
      else if (result.stopReason === "error" && result.error)
        write(red(`error [${result.error.code}]: ${toTerminalSafe(result.error.message)}\n`));
      else if (result.stopReason !== "completed") write(red(`stopped: ${result.stopReason}\n`));
    } catch (error) {
      sayError(error);
    } finally {
      spinner.stop();
      markdown.end();
      running = undefined;
      readContext();
    }
    return true;
  }

  if (options.banner) say(options.banner);
  // Typed input is a conversation: a line while the agent works is refused, and Ctrl-D
  // leaves at once. Piped input (`echo hi | xzatoma chat`) is a script: its lines run one
  // after another, and the end of the input ends the session once they are done.
  const interactive = Boolean((options.input as NodeJS.ReadStream).isTTY);
  return new Promise<void>((resolve) => {
    const queued: string[] = [];
    let inputEnded = false;
    let busy = false;
    /** The line being handled: a turn ends (and is recorded) before the session closes. */
    let handling: Promise<unknown> = Promise.resolve();
    const finish = () => {
      if (closed) return;
      closed = true;
      running?.abort();
      spinner.stop();
      void handling
        .catch(() => undefined)
        .then(() => engine.close())
        .finally(resolve);
    };
    const showPrompt = () => {
      if (inputEnded || closed) return;
      rl.prompt(formatPrompt(engine.state()));
    };
    const next = () => {
      const line = queued.shift();
      if (line === undefined) {
        if (inputEnded) finish();
        else showPrompt();
        return;
      }
      busy = true;
      const handled = handleLine(line);
      handling = handled;
      void handled.then((keepGoing) => {
        busy = false;
        if (!keepGoing) {
          queued.length = 0;
          inputEnded = true;
          rl.close();
          finish();
          return;
        }
        next();
      });
    };
    on.canSend = () => !busy;
    on.interrupt = () => {
      if (confirming) {
        write(dim("\n(refused; the turn is cancelled)\n"));
        refuseQuestion?.abort();
        running?.abort();
        return;
      }
      if (running) {
        running.abort();
        return;
      }
      const now = Date.now();
      if (now - lastInterrupt < 2000) {
        rl.close();
        return;
      }
      lastInterrupt = now;
      write(dim("\n(press Ctrl-C again or Ctrl-D to leave)\n"));
      showPrompt();
    };
    on.end = () => {
      inputEnded = true;
      if (interactive || !busy) finish();
    };
    on.line = (line) => {
      if (confirming) return;
      if (busy && interactive) {
        write(dim("(busy: wait for the answer, or press Ctrl-C to cancel it)\n"));
        return;
      }
      queued.push(line);
      if (!busy) next();
    };
    showPrompt();
    // The code highlighter loads once the prompt is up, not before it (start-up time).
    if (color) setImmediate(() => void preloadHighlighter().catch(() => undefined));
  });
}
