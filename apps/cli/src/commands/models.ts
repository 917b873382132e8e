import { createProvider, type ModelListing, type Provider } from "@xzatoma/providers";
import type { LoadedConfig } from "@xzatoma/runtime";
import type { CommandOptionSource } from "../config/flag-mapping.js";
import { ExitCode } from "../exit-codes.js";
import { toTerminalSafe, toTerminalSafeJson, toTerminalSafeLine } from "../render/terminal-safe.js";
import { loadUserConfig } from "./load-user-config.js";

const warn = (message: string) => process.stderr.write(`xzatoma: ${toTerminalSafe(message)}\n`);

/**
 * The configured provider. Its failures (an unreachable server: `PROVIDER_UNAVAILABLE` with
 * the URL; a model it does not have: `MODEL_NOT_FOUND`) are thrown as they are, and the
 * command line prints them as one error line and a hint, with a non-zero exit code.
 */
function providerOf(loaded: LoadedConfig): Provider {
  return createProvider(loaded.config.provider, {
    env: process.env,
    warn,
    maxContextTokens: loaded.config.agent.conversation.max_tokens,
    dataDir: loaded.config.persistence.data_dir,
  });
}

/** One model of a listing, on one line; the names come from the model server, so escaped. */
function describeListing(model: ModelListing): string {
  const details = [
    model.parameterSize === null ? null : toTerminalSafeLine(model.parameterSize),
    model.contextWindow === null ? null : `${model.contextWindow} tokens`,
  ].filter((detail): detail is string => detail !== null);
  const id = toTerminalSafeLine(model.id);
  return details.length > 0 ? `${id} (${details.join(", ")})` : id;
}

function emptyListing(provider: Provider): string {
  switch (provider.name) {
    case "ollama":
      return "Ollama has no models; pull one with 'ollama pull llama3.2'.";
    case "local":
      return `No GGUF model file found; the local provider looks for ${toTerminalSafeLine(provider.defaultModel)}.`;
    default:
      return "The provider lists no models.";
  }
}

/** `xzatoma models list`: the models the configured provider offers. */
export async function modelsList(
  options: { config?: string; json?: boolean },
  command: CommandOptionSource,
): Promise<number> {
  const provider = providerOf(await loadUserConfig(options, command));
  const models = await provider.listModels();
  if (options.json) {
    process.stdout.write(
      `${toTerminalSafeJson({ provider: provider.name, current: provider.defaultModel, models })}\n`,
    );
    return ExitCode.ok;
  }
  const lines = models.length === 0 ? [emptyListing(provider)] : models.map(describeListing);
  process.stdout.write(
    `${provider.name} (current: ${toTerminalSafeLine(provider.defaultModel)})\n${lines.join("\n")}\n`,
  );
  return ExitCode.ok;
}

/**
 * `xzatoma models info NAME`: context window, output limit, tool and vision support. A model
 * the provider does not have is an error (`MODEL_NOT_FOUND`), not a page of unknowns.
 */
export async function modelsInfo(
  name: string,
  options: { config?: string; json?: boolean },
  command: CommandOptionSource,
): Promise<number> {
  const provider = providerOf(await loadUserConfig(options, command));
  const details = await provider.modelInfo(name);
  if (options.json) {
    process.stdout.write(`${toTerminalSafeJson(details)}\n`);
    return ExitCode.ok;
  }
  const show = (value: number | boolean | null) => (value === null ? "unknown" : String(value));
  process.stdout.write(
    [
      `${details.provider}: ${toTerminalSafeLine(details.model)}`,
      `  context window   ${show(details.contextWindow)}`,
      `  max output       ${show(details.maxOutputTokens)}`,
      `  tool calls       ${show(details.toolCalls)}`,
      `  vision           ${show(details.vision)}`,
    ].join("\n") + "\n",
  );
  return ExitCode.ok;
}
