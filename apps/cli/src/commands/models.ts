import type { CommandOptionSource } from "../config/index.js";
import { ExitCode } from "../exit-codes.js";
import { loadUserConfig } from "./load-user-config.js";
import { createModelSource } from "../session/provider-factory.js";

/** `xzatoma models list`: the models the configured provider offers. */
export async function modelsList(
  options: { config?: string; json?: boolean },
  command: CommandOptionSource,
): Promise<number> {
  const loaded = await loadUserConfig(options, command);
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

/** `xzatoma models info NAME`: context window, output limit, tool and vision support. */
export async function modelsInfo(
  name: string,
  options: { config?: string; json?: boolean },
  command: CommandOptionSource,
): Promise<number> {
  const loaded = await loadUserConfig(options, command);
  const source = await createModelSource(loaded.config, {
    warn: (message) => process.stderr.write(`xzatoma: ${message}\n`),
  });
  const details = await source.info(name);
  const show = (value: number | boolean | null) => (value === null ? "unknown" : String(value));
  if (options.json) {
    process.stdout.write(`${JSON.stringify(details)}\n`);
  } else {
    process.stdout.write(
      [
        `${details.provider}: ${details.model}`,
        `  context window   ${show(details.contextWindow)}`,
        `  max output       ${show(details.maxOutputTokens)}`,
        `  tool calls       ${show(details.toolCalls)}`,
        `  vision           ${show(details.vision)}`,
      ].join("\n") + "\n",
    );
  }
  return ExitCode.ok;
}
