import { homedir } from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { loadConfig } from "@xzatoma/runtime";
import { createAcpAgent } from "../acp/acp-agent.js";
import { createSessionStore } from "../acp/session-store.js";
import {
  FLAG_MAPPINGS,
  pickExplicitFlags,
  type CommandOptionSource,
} from "../config/flag-mapping.js";
import { toTerminalSafe } from "../render/terminal-safe.js";
import { chatModes } from "../session/front-end-settings.js";
import { applyMemorySettings } from "../session/memory-settings.js";

/** Options of `xzatoma agent` as commander parsed them. */
export interface AgentCommandOptions {
  readonly allowDangerous?: boolean;
  readonly config?: string;
}

/**
 * `xzatoma agent`: XZatoma as an Agent Client Protocol agent on standard input and output,
 * started by an editor. Standard output carries protocol messages only; every notice goes
 * to standard error. Runs until the editor closes standard input.
 */
export async function agentCommand(
  options: AgentCommandOptions,
  command: CommandOptionSource,
): Promise<number> {
  const warn = (message: string) => process.stderr.write(`xzatoma: ${toTerminalSafe(message)}\n`);
  // A stray console.log from any library would corrupt the protocol stream.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  // A long-lived process: its memory settings now (see session/memory-settings.ts).
  applyMemorySettings();
  const loaded = await loadConfig({
    ...(options.config ? { configPath: options.config } : {}),
    env: process.env,
    flags: pickExplicitFlags(command),
    flagMappings: FLAG_MAPPINGS,
    homeDir: homedir(),
    cwd: process.cwd(),
  });
  for (const warning of loaded.warnings ?? []) warn(warning);
  const { config } = loaded;
  const acp = createAcpAgent({
    config,
    // The file read, or the one a later start would read: no tool may create it either.
    configPath: loaded.configPath,
    // A person is in the editor: confirmations are asked there, as in chat.
    modes: (current) => chatModes(current),
    store: createSessionStore(path.join(config.persistence.data_dir, "acp-sessions.json")),
    warn,
  });
  const stream = ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const connection = acp.app.connect(stream);
  const onSignal = () => connection.close();
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  try {
    await connection.closed;
  } finally {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
    await acp.close();
  }
  return 0;
}
