import path from "node:path";

/**
 * The embedded model XZatoma's setup downloads and the local provider runs unless
 * configured: Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF (1.1 GB), the small model that did
 * the most of the agentic tasks measured (docs/reference/local-models.md).
 */
export const DEFAULT_LOCAL_MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf";

/** The default embedded model's name for `tools/models/fetch-model.sh`, which downloads it. */
export const DEFAULT_LOCAL_MODEL_NAME = "qwen2.5-coder-1.5b";

/** Where the local provider looks for its model unless configured: `<data dir>/models/`. */
export function defaultLocalModelPath(dataDir: string): string {
  return path.join(dataDir, "models", DEFAULT_LOCAL_MODEL_FILE);
}

/**
 * The command that downloads the default embedded model, verifies it and installs it into
 * `modelsDir` (in a checkout of XZatoma; `bash tools/start.sh` runs it too).
 */
export function defaultLocalModelFetchCommand(modelsDir: string): string {
  const quoted = /^[\w./~+-]+$/.test(modelsDir)
    ? modelsDir
    : `'${modelsDir.replace(/'/g, `'\\''`)}'`;
  return `bash tools/models/fetch-model.sh ${DEFAULT_LOCAL_MODEL_NAME} --install ${quoted}`;
}

/**
 * What to tell a user whose default embedded model, `file` in the data directory's models
 * folder, is missing: where it was looked for and the command that installs it.
 */
export function missingDefaultLocalModelMessage(file: string): string {
  return `No model file at ${file}. provider.local.model_path is not set, so the local provider runs the embedded model ${path.basename(file)} from the data directory's models folder. Download and install it (1.1 GB, once) from a checkout of XZatoma with '${defaultLocalModelFetchCommand(path.dirname(file))}' (bash tools/start.sh does it too), or point provider.local.model_path or --model at another GGUF file.`;
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
 * where XZatoma's setup (`tools/models/fetch-model.sh qwen2.5-coder-1.5b --install`) puts
 * the embedded model. A configured path that does not exist is an error, not a reason to
 * look elsewhere.
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
