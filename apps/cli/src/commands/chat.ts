import type { ApprovalDecision, ApprovalRequest } from "@xzatoma/core";
import { openPromptHistory, promptHistoryFile } from "../chat/prompt-history.js";
import { runRepl } from "../chat/repl.js";
import { createConversationBranching } from "../chat/rewind-command.js";
import { pickExplicitFlags, type CommandOptionSource } from "../config/flag-mapping.js";
import { ExitCode } from "../exit-codes.js";
import { startTelemetry } from "../telemetry/index.js";
import { shouldUseColor } from "../render/color.js";
import { toTerminalSafe, toTerminalSafeLine } from "../render/terminal-safe.js";
import { createChatSession } from "../session/chat-session.js";
import { createChatTraceLog } from "../session/chat-trace-log.js";
import { chatLogFile, chatModes } from "../session/front-end-settings.js";
import { conversationPlace } from "../session/conversation-place.js";
import { prepareSession } from "../session/prepare-session.js";
import { formatRecap } from "../session/recap.js";
import { ResumeCancelledError, resolveResumeTarget } from "../session/resume-target.js";
import { UsageError } from "../usage-error.js";

/** Options of `xzatoma chat`. */
export interface ChatCommandOptions {
  readonly workspace?: string;
  /** An id (or unique prefix), or true (`--resume` alone): pick one of this project's. */
  readonly resume?: string | true;
  /** `--continue`: this project's newest conversation. */
  readonly continue?: boolean;
  /** With `resume` or `continue`: continue in a new branch (a fork); the original stays. */
  readonly fork?: boolean;
  readonly verbose?: boolean;
  readonly allowDangerous?: boolean;
  readonly config?: string;
}

/**
 * `xzatoma chat`: the interactive REPL. Quiet by default; every event goes to a trace log
 * file (`<data dir>/logs/chat.log`), and `--verbose` also shows it live on stderr.
 */
export async function chatCommand(
  options: ChatCommandOptions,
  command: CommandOptionSource,
): Promise<number> {
  if (options.fork && options.resume === undefined && !options.continue)
    throw new UsageError(
      "--fork needs --resume ID (or --continue): the conversation to branch from.",
    );
  const notices: string[] = [];
  // Notices before the REPL starts go into its banner; later ones (an MCP server that could
  // not start or stopped, a sign-in URL) to standard error at once, escaped.
  let noticesShown = false;
  let confirm: ((request: ApprovalRequest) => Promise<ApprovalDecision>) | undefined;
  // Off unless OTEL_EXPORTER_OTLP_* or XZATOMA_TELEMETRY asks; then the SDK loads here.
  const telemetry = await startTelemetry(process.env, {
    warn: (message) => process.stderr.write(`xzatoma: ${toTerminalSafe(message)}\n`),
  });
  if (options.continue && options.resume !== undefined)
    throw new UsageError("--continue and --resume exclude each other; give one.");
  const resuming = options.resume !== undefined || options.continue === true;
  const color = shouldUseColor(process.stdout, process.env);
  // The picker and the question before a move need a person at a terminal.
  const terminal =
    process.stdin.isTTY && process.stdout.isTTY
      ? { input: process.stdin, output: process.stdout, color }
      : undefined;
  let movedFrom: string | undefined;
  let prepared: Awaited<ReturnType<typeof prepareSession>>;
  try {
    prepared = await prepareSession({
      ...(options.config ? { configPath: options.config } : {}),
      flags: pickExplicitFlags(command),
      ...(options.workspace ? { workspace: options.workspace } : {}),
      io: {
        warn: (message) => {
          if (noticesShown) process.stderr.write(`xzatoma: ${toTerminalSafe(message)}\n`);
          else notices.push(message);
        },
        // Only the person at the terminal answers here; the REPL installs how it asks.
        ask: (request) =>
          confirm
            ? confirm(request)
            : Promise.resolve({ approved: false, reason: "No one is available to confirm it." }),
      },
      modes: (config) => chatModes(config),
      ...(telemetry ? { telemetry } : {}),
      mentionUrlsConfirmed: true,
      // A person is there to approve what children do, so chat always offers delegation.
      subagents: true,
      // Right after setup nothing is configured: the embedded model, or how to get a model.
      fallBackToLocal: true,
      history: {},
      ...(resuming
        ? {
            chooseResume: async (config, workspace) => {
              const target = await resolveResumeTarget(
                {
                  ...(options.resume === undefined ? {} : { resume: options.resume }),
                  ...(options.continue ? { continueLatest: true } : {}),
                  explicitWorkspace: options.workspace !== undefined,
                },
                { config, workspace, terminal },
              );
              movedFrom = target.movedFrom;
              return target;
            },
          }
        : {}),
    });
  } catch (error) {
    await telemetry?.shutdown();
    if (error instanceof ResumeCancelledError) {
      process.stderr.write(`${toTerminalSafe(error.message)}\n`);
      return ExitCode.ok;
    }
    throw error;
  }
  const { config } = prepared.loaded;
  const { runtime } = prepared;
  // The trace persists tool output and the user's words: secrets are redacted first.
  const traceLog = createChatTraceLog({
    file: chatLogFile(config),
    // terminal-safe: each line the log echoes is toTerminalSafeJson output (chat-trace-log.ts)
    ...(options.verbose ? { echo: (line: string) => process.stderr.write(line) } : {}),
  });
  runtime.subscribe((event) => traceLog.record(event));
  const engine = createChatSession(runtime, prepared.mentions, (next) => {
    confirm = next;
  });
  const banner = [
    `XZatoma chat in ${runtime.workspace.root}. Type /help for commands, exit to leave.`,
    ...notices,
    ...(resuming && runtime.conversationId
      ? [
          `Resumed conversation ${runtime.conversationId} (${runtime.messages.length} messages).`,
          ...(movedFrom === undefined
            ? []
            : [`It worked in ${movedFrom} before; it continues here, and its files stay there.`]),
          formatRecap(
            runtime.messages,
            conversationPlace(config.persistence.data_dir, runtime.conversationId).filesChanged,
            { color },
          ).trimEnd(),
        ]
      : []),
  ].join("\n");
  const branching = createConversationBranching(runtime);
  let forked: string | undefined;
  try {
    // The fork is made before the first message, so the original stays as it was.
    forked = options.fork ? branching.fork() : undefined;
  } catch (error) {
    await runtime.close();
    await telemetry?.shutdown();
    throw error;
  }
  noticesShown = true;
  try {
    await runRepl({
      engine,
      input: process.stdin,
      output: process.stdout,
      color,
      banner: forked === undefined ? banner : `${banner}\n${forked}`,
      history: openPromptHistory({
        file: promptHistoryFile(config.persistence.data_dir),
        warn: (message) => process.stderr.write(`xzatoma: ${toTerminalSafe(message)}\n`),
      }),
      branching,
    });
  } finally {
    traceLog.flush();
    await runtime.close();
    await telemetry?.shutdown();
  }
  if (runtime.conversationId) {
    const saved = toTerminalSafeLine(runtime.conversationId);
    process.stdout.write(`\nConversation saved: ${saved} (xzatoma chat --resume ${saved})\n`);
  }
  return ExitCode.ok;
}
