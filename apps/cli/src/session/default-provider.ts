import { existsSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import {
  DEFAULT_LOCAL_MODEL_FILE,
  defaultLocalModelFetchCommand,
  normalizeOllamaHost,
} from "@xzatoma/providers";
import type { LoadedConfig } from "@xzatoma/runtime";

/** How long a loopback connection may take before the server counts as not answering. */
const PROBE_MS = 300;

/** Whether something accepts a TCP connection at `url`'s host and port. */
function answers(url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ""), port });
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(PROBE_MS, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** What to do when nobody chose a provider and the default one does not answer. */
export type DefaultProviderChoice =
  | { readonly kind: "keep" }
  | { readonly kind: "local"; readonly notice: string }
  | { readonly kind: "hint"; readonly notice: string };

/**
 * Chat right after setup: nobody chose a provider (no file, variable or flag set
 * `provider.type` or the Ollama host), so chat would talk to Ollama on this machine. When
 * nothing answers there and the embedded model is installed in the data directory, chat
 * runs that model instead and says so; when it is not installed, chat says how to get a
 * model. Anything chosen, a host elsewhere, or a server that answers is kept as it is.
 */
export async function chooseDefaultProvider(
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv,
): Promise<DefaultProviderChoice> {
  const { config, sources } = loaded;
  if (config.provider.type !== "ollama") return { kind: "keep" };
  if ((sources["provider.type"] ?? "default") !== "default") return { kind: "keep" };
  if ((sources["provider.ollama.host"] ?? "default") !== "default") return { kind: "keep" };
  if (env["OLLAMA_HOST"]?.trim()) return { kind: "keep" };
  const base = new URL(normalizeOllamaHost(config.provider.ollama.host));
  if (!LOOPBACK.has(base.hostname) || (await answers(base))) return { kind: "keep" };
  const where = `${base.protocol}//${base.host}`;
  // The embedded model's file in the data directory, where `bash tools/start.sh` installs it
  // and the local provider looks for it (`defaultLocalModelPath` in @xzatoma/providers).
  const modelsDir = path.join(config.persistence.data_dir, "models");
  const modelPath =
    config.provider.local.model_path ?? path.join(modelsDir, DEFAULT_LOCAL_MODEL_FILE);
  if (existsSync(modelPath))
    return {
      kind: "local",
      notice: `No model server is configured and none answers at ${where}, so this chat runs the embedded model (${path.basename(modelPath)}, in-process on the CPU; small and slow, for trying XZatoma out). Start Ollama, or pass --provider, for real work.`,
    };
  return {
    kind: "hint",
    notice: `No model server is configured and none answers at ${where}. Start Ollama there, pass --provider (openai, copilot), or run the embedded model with --provider local (in a checkout of XZatoma, '${defaultLocalModelFetchCommand(modelsDir)}' or 'bash tools/start.sh' installs it).`,
  };
}
