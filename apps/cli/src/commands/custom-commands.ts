import { homedir } from "node:os";
import { discoverCommands, openTrustStore, type CustomCommand } from "@xzatoma/runtime";
import type { CommandOptionSource } from "../config/flag-mapping.js";
import { ExitCode } from "../exit-codes.js";
import { toTerminalSafe, toTerminalSafeJson } from "../render/terminal-safe.js";
import { resolveWorkspace } from "../session/prepare-session.js";
import { UsageError } from "../usage-error.js";
import { loadUserConfig } from "./load-user-config.js";

interface CommandsOptions {
  config?: string;
  workspace?: string;
  json?: boolean;
}

async function found(options: CommandsOptions, command: CommandOptionSource) {
  const { config } = await loadUserConfig(options, command);
  const dataDir = config.persistence.data_dir;
  const workspace = resolveWorkspace(options.workspace);
  return { dataDir, commands: discoverCommands({ workspace, homeDir: homedir(), dataDir }) };
}

/**
 * `xzatoma commands list [--json]`: the custom commands (`/name args`) a session in the
 * workspace finds, whether each may run (the user's, and trusted project commands), the
 * shadowed ones and invalid ones with their file and field.
 */
export async function commandsList(
  options: CommandsOptions,
  source: CommandOptionSource,
): Promise<number> {
  const { commands } = await found(options, source);
  const entry = (command: CustomCommand) => ({
    name: command.name,
    description: command.description,
    scope: command.scope,
    offered: commands.offered.includes(command),
    file: command.file,
    ...(command.model ? { model: command.model } : {}),
    ...(command.allowedTools ? { allowedTools: command.allowedTools } : {}),
  });
  if (options.json) {
    process.stdout.write(
      `${toTerminalSafeJson({
        commands: commands.commands.map(entry),
        shadowed: commands.shadowed.map(entry),
        problems: commands.problems,
      })}\n`,
    );
    return ExitCode.ok;
  }
  if (commands.commands.length === 0) process.stdout.write("No custom commands found.\n");
  for (const command of commands.commands) {
    const state =
      command.scope === "user"
        ? "user"
        : commands.offered.includes(command)
          ? "project, trusted"
          : "project, NOT trusted";
    process.stdout.write(
      `${toTerminalSafe(`/${command.name} (${state}): ${command.description}\n    ${command.file}`)}\n`,
    );
  }
  for (const command of commands.shadowed) {
    process.stdout.write(`shadowed: ${toTerminalSafe(`/${command.name} ${command.file}`)}\n`);
  }
  for (const problem of commands.problems) {
    process.stdout.write(
      `invalid: ${toTerminalSafe(`${problem.file}: ${problem.field} ${problem.message}`)}\n`,
    );
  }
  return ExitCode.ok;
}

/** `xzatoma commands trust NAME`: trusts a project command as its file is now. */
export async function commandsTrust(
  name: string,
  options: CommandsOptions,
  source: CommandOptionSource,
): Promise<number> {
  const wanted = name.replace(/^\//, "");
  const { dataDir, commands } = await found(options, source);
  const command = commands.commands.find((candidate) => candidate.name === wanted);
  if (!command) {
    throw new UsageError(
      `No custom command named '/${wanted}' in this workspace; 'xzatoma commands list' shows them.`,
    );
  }
  if (command.scope === "user") {
    process.stdout.write(
      `${toTerminalSafe(`'/${wanted}' is your own command (${command.file})`)}: it needs no trust.\n`,
    );
    return ExitCode.ok;
  }
  openTrustStore(dataDir).trust(command);
  process.stdout.write(
    `${toTerminalSafe(`Trusted the project command '/${wanted}' (${command.file}) as it is now`)}; a change to the file makes it untrusted again.\n`,
  );
  return ExitCode.ok;
}
