import { homedir } from "node:os";
import { loadConfig, type LoadedConfig } from "@xzatoma/runtime";
import {
  FLAG_MAPPINGS,
  pickExplicitFlags,
  type CommandOptionSource,
} from "../config/flag-mapping.js";

/** Loads the configuration the way every command does: `--config`, the environment, the flags typed. */
export function loadUserConfig(
  options: { config?: string },
  command: CommandOptionSource,
): Promise<LoadedConfig> {
  return loadConfig({
    ...(options.config ? { configPath: options.config } : {}),
    env: process.env,
    flags: pickExplicitFlags(command),
    flagMappings: FLAG_MAPPINGS,
    homeDir: homedir(),
    cwd: process.cwd(),
  });
}
