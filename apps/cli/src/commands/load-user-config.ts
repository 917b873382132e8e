import { homedir } from "node:os";
import {
  loadConfig,
  pickExplicitFlags,
  type CommandOptionSource,
  type LoadedConfig,
} from "../config/index.js";

/** Loads the configuration the way every command does: `--config`, the environment, the flags typed. */
export function loadUserConfig(
  options: { config?: string },
  command: CommandOptionSource,
): Promise<LoadedConfig> {
  return loadConfig({
    ...(options.config ? { configPath: options.config } : {}),
    env: process.env,
    flags: pickExplicitFlags(command),
    homeDir: homedir(),
    cwd: process.cwd(),
  });
}
