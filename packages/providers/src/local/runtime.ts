import { closeSync, openSync, readSync } from "node:fs";
import { describeError } from "@xzatoma/core";
import type * as NodeLlamaCpp from "node-llama-cpp";
import type { Llama, LlamaModel } from "node-llama-cpp";
import { LocalModelUnavailableError } from "./errors.js";

/** The optional peer package that runs GGUF models in-process. */
export const LOCAL_RUNTIME_PACKAGE = "node-llama-cpp";

export type LlamaRuntime = typeof NodeLlamaCpp;

export interface LoadedRuntime {
  readonly module: LlamaRuntime;
  readonly llama: Llama;
}

export interface LoadedModel {
  readonly runtime: LoadedRuntime;
  readonly model: LlamaModel;
}

const runtimes = new Map<string, Promise<LoadedRuntime>>();
const models = new Map<string, Promise<LoadedModel>>();
let epoch = 0;

/** Changes whenever {@link disposeLocalModels} runs, so holders of a context know it is gone. */
export function runtimeEpoch(): number {
  return epoch;
}

function isModuleNotFound(error: unknown, specifier: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    error instanceof Error &&
    error.message.includes(specifier)
  );
}

async function importRuntime(specifier: string): Promise<LlamaRuntime> {
  try {
    return (await import(specifier)) as LlamaRuntime;
  } catch (error) {
    if (isModuleNotFound(error, specifier)) {
      throw new LocalModelUnavailableError(
        "runtime-missing",
        `The local provider needs the optional package '${LOCAL_RUNTIME_PACKAGE}', which is not installed (cannot import '${specifier}'). Install it next to XZatoma with 'npm install ${LOCAL_RUNTIME_PACKAGE}'.`,
        { cause: error },
      );
    }
    throw new LocalModelUnavailableError(
      "runtime-failed",
      `The package '${LOCAL_RUNTIME_PACKAGE}' could not be loaded: ${describeError(error)}`,
      { cause: error },
    );
  }
}

async function startRuntime(specifier: string): Promise<LoadedRuntime> {
  const module = await importRuntime(specifier);
  try {
    const llama = await module.getLlama({
      gpu: false,
      build: "never",
      skipDownload: true,
      progressLogs: false,
      logLevel: module.LlamaLogLevel.error,
    });
    return { module, llama };
  } catch (error) {
    throw new LocalModelUnavailableError(
      "runtime-failed",
      `'${LOCAL_RUNTIME_PACKAGE}' found no prebuilt CPU binary for ${process.platform}-${process.arch} (${describeError(error)}). Reinstall it with 'npm install ${LOCAL_RUNTIME_PACKAGE}' so that its optional package @node-llama-cpp/${process.platform}-${process.arch} is installed too.`,
      { cause: error },
    );
  }
}

/** The llama.cpp runtime, loaded once per process and module specifier. */
export function loadRuntime(specifier: string = LOCAL_RUNTIME_PACKAGE): Promise<LoadedRuntime> {
  let runtime = runtimes.get(specifier);
  if (!runtime) {
    runtime = startRuntime(specifier);
    runtimes.set(specifier, runtime);
    // A failed load is not cached: installing the package and trying again works.
    const pending = runtime;
    pending.catch(() => {
      if (runtimes.get(specifier) === pending) runtimes.delete(specifier);
    });
  }
  return runtime;
}

/**
 * Checks, without loading it, that `modelPath` is a readable GGUF file; throws a
 * {@link LocalModelUnavailableError} naming the file otherwise.
 */
export function checkModelFile(modelPath: string): void {
  let descriptor: number;
  try {
    descriptor = openSync(modelPath, "r");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new LocalModelUnavailableError("model-missing", `No model file at ${modelPath}.`, {
        cause: error,
        fields: { path: modelPath },
      });
    }
    throw new LocalModelUnavailableError(
      "model-invalid",
      `Cannot read the model file ${modelPath}: ${describeError(error)}`,
      { cause: error, fields: { path: modelPath } },
    );
  }
  const magic = Buffer.alloc(4);
  let read = 0;
  try {
    read = readSync(descriptor, magic, 0, 4, 0);
  } catch (error) {
    throw new LocalModelUnavailableError(
      "model-invalid",
      `Cannot read the model file ${modelPath}: ${describeError(error)}`,
      { cause: error, fields: { path: modelPath } },
    );
  } finally {
    closeSync(descriptor);
  }
  if (read < 4 || magic.toString("latin1") !== "GGUF") {
    throw new LocalModelUnavailableError(
      "model-invalid",
      `${modelPath} is not a GGUF model file (it does not start with 'GGUF'). The local provider runs GGUF models only.`,
      { fields: { path: modelPath } },
    );
  }
}

async function startModel(specifier: string, modelPath: string): Promise<LoadedModel> {
  const runtime = await loadRuntime(specifier);
  checkModelFile(modelPath);
  try {
    const model = await runtime.llama.loadModel({ modelPath });
    return { runtime, model };
  } catch (error) {
    throw new LocalModelUnavailableError(
      "model-invalid",
      `llama.cpp cannot load the model ${modelPath}: ${describeError(error)}`,
      { cause: error, fields: { path: modelPath } },
    );
  }
}

/**
 * The model at `modelPath` (absolute), loaded once per process: later calls, from any
 * local language model, share it. {@link disposeLocalModels} frees it.
 */
export function loadModel(modelPath: string, specifier: string = LOCAL_RUNTIME_PACKAGE) {
  const key = `${specifier}\u0000${modelPath}`;
  let model = models.get(key);
  if (!model) {
    model = startModel(specifier, modelPath);
    models.set(key, model);
    const pending = model;
    pending.catch(() => {
      if (models.get(key) === pending) models.delete(key);
    });
  }
  return model;
}

/**
 * Frees every model the local provider loaded in this process, with their contexts, and
 * the llama.cpp runtime. A local language model used afterwards loads its model again.
 */
export async function disposeLocalModels(): Promise<void> {
  epoch += 1;
  const loadedModels = [...models.values()];
  const loadedRuntimes = [...runtimes.values()];
  models.clear();
  runtimes.clear();
  for (const pending of loadedModels) {
    const loaded = await pending.catch(() => undefined);
    if (loaded && !loaded.model.disposed) await loaded.model.dispose();
  }
  for (const pending of loadedRuntimes) {
    const loaded = await pending.catch(() => undefined);
    if (loaded && !loaded.llama.disposed) await loaded.llama.dispose();
  }
}
