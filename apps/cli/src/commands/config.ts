import { homedir } from "node:os";
import {
  defaultConfigPath,
  formatConfig,
  formatConfigJson,
  validateConfigFile,
} from "@xzatoma/runtime";
import type { CommandOptionSource } from "../config/flag-mapping.js";
import { ExitCode } from "../exit-codes.js";
import { toTerminalSafe, toTerminalSafeJson, toTerminalSafeLine } from "../render/terminal-safe.js";
import { resolveWorkspace } from "../session/prepare-session.js";
import { loadUserConfig } from "./load-user-config.js";

/** `xzatoma config show`: the effective configuration with the source of each value. */
export async function configShow(
  options: { config?: string; json?: boolean; workspace?: string },
  command: CommandOptionSource,
): Promise<number> {
  // With the project's configuration of the workspace, named as the source of its values.
  const loaded = await loadUserConfig(options, command, [], resolveWorkspace(options.workspace));
  for (const warning of loaded.warnings)
    process.stderr.write(`warning: ${toTerminalSafe(warning)}\n`);
  const format = { configPath: loaded.configPath, configFileFound: loaded.configFileFound };
  // The configuration is the user's own text, but a value can hold anything: escaped.
  process.stdout.write(
    options.json
      ? `${toTerminalSafe(formatConfigJson(loaded.config, loaded.sources, format))}\n`
      : `${toTerminalSafe(formatConfig(loaded.config, loaded.sources, format))}\n`,
  );
  return ExitCode.ok;
}

/**
 * `xzatoma config validate FILE`: every problem with its key path, exit 1 when there are
 * any; keys that are valid but have no effect yet are listed as warnings (exit 0).
 */
export async function configValidate(file: string, options: { json?: boolean }): Promise<number> {
  const result = await validateConfigFile(file, { homeDir: homedir() });
  if (options.json) {
    process.stdout.write(
      `${toTerminalSafeJson({ file, valid: result.valid, problems: result.problems, warnings: result.warnings })}\n`,
    );
  } else if (result.valid) {
    process.stdout.write(`${toTerminalSafeLine(file)}: valid\n`);
    for (const warning of result.warnings)
      process.stdout.write(`  warning: ${toTerminalSafe(warning)}\n`);
  } else {
    process.stdout.write(`${toTerminalSafeLine(file)}: ${result.problems.length} problem(s)\n`);
    for (const problem of result.problems) {
      const where = problem.line
        ? `${file}:${problem.line}${problem.column ? `:${problem.column}` : ""}`
        : file;
      process.stdout.write(
        `  ${toTerminalSafeLine(where)}: ${toTerminalSafe(`${problem.keyPath ? `${problem.keyPath}: ` : ""}${problem.message}`)}\n`,
      );
    }
  }
  return result.valid ? ExitCode.ok : ExitCode.failure;
}

/** `xzatoma config path`: the configuration file in use, and whether it exists. */
export function configPath(options: { config?: string }): number {
  const path =
    options.config ?? process.env["XZATOMA_CONFIG"] ?? defaultConfigPath(process.env, homedir());
  process.stdout.write(`${toTerminalSafeLine(path)}\n`);
  return ExitCode.ok;
}
