// The local provider's language model: a GGUF file run in this process by node-llama-cpp.
// What it puts together lives beside it: options.ts (settings and defaults), session.ts
// (the loaded model and its context), request-plan.ts (what a call asks), sampling.ts,
// generate.ts (one generation written as stream parts) and stream-parts.ts.
import path from "node:path";
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";
import { InvalidArgumentError } from "@xzatoma/core";
import { abortReason, raceAbort } from "./abort.js";
import { generate } from "./generate.js";
import type { LocalLanguageModel, LocalModelOptions } from "./options.js";
import { planRequest } from "./request-plan.js";
import { checkModelFile, LOCAL_RUNTIME_PACKAGE, runtimeEpoch } from "./runtime.js";
import { startSession, type Session } from "./session.js";
import { generateResultOf } from "./stream-parts.js";

class LocalModel implements LocalLanguageModel {
  readonly specificationVersion = "v4";
  readonly provider = "local";
  readonly modelId: string;
  readonly modelPath: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};

  readonly #options: LocalModelOptions;
  readonly #runtimeModule: string;
  #session: Promise<Session> | undefined;
  #tail: Promise<void> = Promise.resolve();

  constructor(options: LocalModelOptions) {
    this.#options = options;
    this.modelPath = path.resolve(options.modelPath);
    this.modelId = options.modelId ?? path.basename(this.modelPath).replace(/\.gguf$/i, "");
    this.#runtimeModule = options.runtimeModule ?? LOCAL_RUNTIME_PACKAGE;
  }

  async load(): Promise<void> {
    await this.#getSession();
  }

  async #getSession(): Promise<Session> {
    for (;;) {
      if (!this.#session) {
        const started = this.#startSession();
        this.#session = started;
        started.catch(() => {
          if (this.#session === started) this.#session = undefined;
        });
      }
      const pending = this.#session;
      const session = await pending;
      if (session.epoch === runtimeEpoch() && !session.context.disposed) return session;
      // disposeLocalModels() freed it: load again.
      if (this.#session === pending) this.#session = undefined;
    }
  }

  #startSession(): Promise<Session> {
    return startSession(this.modelPath, this.#runtimeModule, this.#options);
  }

  /** Waits for the requests before this one: the model has one context sequence. */
  async #acquire(signal: AbortSignal | undefined): Promise<() => void> {
    const previous = this.#tail;
    let release = () => {};
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.#tail = previous.then(() => mine);
    try {
      await raceAbort(previous, signal);
    } catch (error) {
      void previous.then(release);
      throw error;
    }
    return release;
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    options.abortSignal?.throwIfAborted();
    const session = await this.#getSession();
    const plan = planRequest(
      options,
      session.chatWrapper.settings.functions.parallelism != null,
      this.#options.toolInstructions,
    );
    const release = await this.#acquire(options.abortSignal);

    const abort = new AbortController();
    const onAbort = () => abort.abort(abortReason(options.abortSignal as AbortSignal));
    options.abortSignal?.addEventListener("abort", onAbort, { once: true });
    if (options.abortSignal?.aborted) onAbort();

    let finished = false;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start: (controller) => {
        const emit = (part: LanguageModelV4StreamPart) => {
          if (!finished) controller.enqueue(part);
        };
        const generation = {
          session,
          plan,
          options,
          settings: this.#options,
          modelId: this.modelId,
          signal: abort.signal,
          emit,
        };
        void generate(generation)
          .then(
            () => {
              if (!finished) controller.close();
            },
            (reason: unknown) => {
              if (!finished) controller.error(reason);
            },
          )
          .finally(() => {
            finished = true;
            options.abortSignal?.removeEventListener("abort", onAbort);
            release();
          });
      },
      cancel: (reason) => {
        finished = true;
        abort.abort(reason ?? new DOMException("The stream was cancelled.", "AbortError"));
      },
    });
    return { stream, request: { body: { modelPath: this.modelPath } } };
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const { stream } = await this.doStream(options);
    return generateResultOf(stream, this.modelId);
  }
}

/**
 * Creates an AI SDK language model that runs a GGUF model in this process through the
 * optional package node-llama-cpp (CPU build, no network). The model is loaded on the
 * first request, or by `load()`, and shared by every local model of the same file until
 * {@link disposeLocalModels}. Requests to one model run one at a time.
 *
 * Tool calls use the model's own chat template through node-llama-cpp's function calling
 * (tool choice `auto`); with tool choice `required` or a named tool, a grammar makes the
 * model answer with a call.
 *
 * Throws a `LocalModelUnavailableError` at once when the file is missing or is not GGUF;
 * a missing node-llama-cpp surfaces on `load()` or the first request.
 *
 * @example
 * const model = createLocalModel({ modelPath: "/models/qwen2.5-1.5b-instruct-q4_k_m.gguf" });
 * const agent = new Agent({ model, tools });
 */
export function createLocalModel(options: LocalModelOptions): LocalLanguageModel {
  const modelPath = path.resolve(options.modelPath);
  checkModelFile(modelPath);
  for (const key of ["contextSize", "threads", "maxTokens"] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
      throw new InvalidArgumentError(`The local model's ${key} must be a positive integer.`);
    }
  }
  return new LocalModel({ ...options, modelPath });
}

/**
 * Creates a local model and loads it at once: resolves when it is ready to answer.
 * Rejects with a `LocalModelUnavailableError` naming the missing package or file.
 */
export async function loadLocalModel(options: LocalModelOptions): Promise<LocalLanguageModel> {
  const model = createLocalModel(options);
  await model.load();
  return model;
}
