import path from "node:path";

/** The embedded model XZatoma's setup downloads: SmolLM2-135M-Instruct, Q4_1 GGUF. */
export const DEFAULT_LOCAL_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf";

/** Where the local provider looks for its model unless configured: `<data dir>/models/`. */
export function defaultLocalModelPath(dataDir: string): string {
  return path.join(dataDir, "models", DEFAULT_LOCAL_MODEL_FILE);
}

/** The model file the local provider runs, and why that one. */
export interface LocalModelLocation {
  /** Absolute path of the GGUF file. */
  readonly path: string;
  /** True when `provider.local.model_path` named it; false for the default in the data directory. */
  readonly configured: boolean;
}

/**
 * The one rule for the local model's file: `provider.local.model_path` when it is set (a
 * relative path against `cwd`), else {@link defaultLocalModelPath} in the data directory,
 * where XZatoma's setup (`tools/models/fetch-smollm2.sh --install`) puts the embedded
 * model. A configured path that does not exist is an error, not a reason to look elsewhere.
 */
export function resolveLocalModelPath(
  configured: string | undefined,
  dataDir: string,
  cwd: string = process.cwd(),
): LocalModelLocation {
  if (configured !== undefined && configured.trim() !== "")
    return { path: path.resolve(cwd, configured), configured: true };
  return { path: path.resolve(cwd, defaultLocalModelPath(dataDir)), configured: false };
}
