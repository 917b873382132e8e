import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { Message } from "@xzatoma/conversation";
import type { AgentEvent } from "@xzatoma/core";
import { executionModeOf } from "@xzatoma/runtime";
import { runRepl } from "../chat/repl.js";
import { pickExplicitFlags, type CommandOptionSource } from "../config/index.js";
import { ExitCode } from "../exit-codes.js";
import { createHistoryRecorder, titleFrom } from "../history/history-recorder.js";
import { toTerminalSafeJson } from "../render/terminal-safe.js";
import { createAgentSession } from "../session/agent-session.js";
import { createAuditSink } from "@xzatoma/runtime";
import { contextOptions, toAgentLimits } from "../session/context-options.js";
import { prepareSession } from "../session/prepare-session.js";
import type { SessionModes } from "@xzatoma/runtime";
import { UsageError } from "../usage-error.js";
import { openUserHistory } from "./history.js";

/** Options of `xzatoma chat`. */
export interface ChatCommandOptions {
  readonly workspace?: string;
  readonly resume?: string;
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
  const notices: string[] = [];
  const prepared = await prepareSession({
    ...(options.config ? { configPath: options.config } : {}),
    flags: pickExplicitFlags(command),
    ...(options.workspace ? { workspace: options.workspace } : {}),
    warn: (message) => notices.push(message),
    mentionUrlsConfirmed: true,
  });
  const { config } = prepared.loaded;
  const modes: SessionModes = {
    chatMode: config.agent.chat.default_mode,
    safetyMode: config.agent.chat.default_safety,
    executionMode: options.allowDangerous
      ? "full"
      : executionModeOf(config.agent.terminal.default_mode) === "restricted"
        ? "interactive"
        : executionModeOf(config.agent.terminal.default_mode),
  };
  const history = config.persistence.enabled
    ? openUserHistory(config.persistence.db_path)
    : undefined;
  let resumed: Message[] = [];
  if (options.resume) {
    if (!history)
      throw new UsageError("--resume: history is turned off (persistence.enabled: false).");
    const previous = history.getConversation(options.resume);
    if (!previous)
      throw new UsageError(
        `--resume: no conversation '${options.resume}'; see 'xzatoma history list'.`,
      );
    resumed = previous.messages
      .filter((stored) => stored.message.role !== "system")
      .map((stored) => stored.message as Message);
  }
  const recorder = history
    ? createHistoryRecorder(history, {
        title: titleFrom,
        ...(options.resume
          ? { resumeId: history.getConversation(options.resume)?.id ?? options.resume }
          : {}),
      })
    : undefined;
  const logFile = config.logging.file ?? path.join(config.persistence.data_dir, "logs", "chat.log");
  mkdirSync(path.dirname(logFile), { recursive: true, mode: 0o700 });
  const trace = (event: AgentEvent) => {
    const line = `${toTerminalSafeJson({ time: new Date().toISOString(), ...event })}\n`;
    appendFileSync(logFile, line);
    if (options.verbose) process.stderr.write(line);
  };
  const session = createAgentSession({
    provider: prepared.models.provider,
    model: prepared.models.model,
    createModel: (name) => prepared.models.createModel(name),
    listModels: () => prepared.models.listModels(),
    contextWindow: (name) => prepared.models.contextWindow(name),
    tools: prepared.environment.tools,
    modes,
    systemPrompt: prepared.systemPrompt,
    limits: toAgentLimits(config),
    context: (model) => contextOptions(config, prepared.models.contextWindow(model)),
    audit: createAuditSink(prepared.environment.auditLog, prepared.environment.workspace.root),
    mentions: prepared.mentions,
    ...(recorder ? { recorder } : {}),
    history: resumed,
    workspace: prepared.environment.workspace.root,
  });
  const color = Boolean(process.stdout.isTTY) && process.env["NO_COLOR"] === undefined;
  const banner = [
    `XZatoma chat in ${prepared.environment.workspace.root}. Type /help for commands, exit to leave.`,
    ...notices,
    ...(options.resume
      ? [`Resumed conversation ${options.resume} (${resumed.length} messages).`]
      : []),
  ].join("\n");
  try {
    await runRepl({
      engine: session,
      input: process.stdin,
      output: process.stdout,
      color,
      trace,
      banner,
    });
  } finally {
    history?.close();
    await prepared.environment.close();
  }
  if (recorder?.conversationId)
    process.stdout.write(
      `\nConversation saved: ${recorder.conversationId} (xzatoma chat --resume ${recorder.conversationId})\n`,
    );
  return ExitCode.ok;
}
