import { homedir } from "node:os";
import { loadConfig, type LoadedConfig } from "@xzatoma/runtime";
import {
  FLAG_MAPPINGS,
  pickExplicitFlags,
  type CommandOptionSource,
} from "../config/flag-mapping.js";

/**
 * Loads the configuration the way every command does: `--config`, the environment, the flags
 * typed. `ownOptions` are the command's own options that share a name with a configuration
 * flag but mean something else there (`policy check-command --mode` is an execution mode,
 * not the chat mode `--mode` sets elsewhere): they are not read as configuration.
 * `projectDir` adds that directory's project configuration (`.xzatoma/config.yaml`).
 */
export function loadUserConfig(
  options: { config?: string },
  command: CommandOptionSource,
  ownOptions: readonly string[] = [],
  projectDir?: string,
): Promise<LoadedConfig> {
  const flags = Object.fromEntries(
    Object.entries(pickExplicitFlags(command)).filter(([name]) => !ownOptions.includes(name)),
  );
  return loadConfig({
    ...(options.config ? { configPath: options.config } : {}),
    env: process.env,
    flags,
    flagMappings: FLAG_MAPPINGS,
    homeDir: homedir(),
    cwd: process.cwd(),
    ...(projectDir === undefined ? {} : { projectDir }),
  });
}
