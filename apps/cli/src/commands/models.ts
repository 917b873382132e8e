import { homedir } from "node:os";
import { loadConfig, pickExplicitFlags, type CommandOptionSource } from "../config/index.js";
import { ExitCode } from "../exit-codes.js";
import { createModelSource } from "../session/provider-factory.js";

/** `xzatoma models list`: the models the configured provider offers. */
export async function modelsList(
  options: { config?: string; json?: boolean },
  command: CommandOptionSource,
): Promise<number> {
  const loaded = await loadConfig({
    ...(options.config ? { configPath: options.config } : {}),
    env: process.env,
    flags: pickExplicitFlags(command),
    homeDir: homedir(),
    cwd: process.cwd(),
  });
  const source = await createModelSource(loaded.config, {
    warn: (message) => process.stderr.write(`xzatoma: ${message}\n`),
  });
  const listing = await source.listModels();
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ provider: source.provider, current: source.model, models: listing.split("\n") })}\n`,
    );
  } else {
    process.stdout.write(`${source.provider} (current: ${source.model})\n${listing}\n`);
  }
  return ExitCode.ok;
}
