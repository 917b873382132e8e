import { ProviderUnavailableError } from "@xzatoma/core";

/** Why the local model cannot be used. */
export type LocalModelUnavailableReason =
  /** The optional package `node-llama-cpp` is not installed. */
  | "runtime-missing"
  /** `node-llama-cpp` is installed but its native binary cannot be loaded. */
  | "runtime-failed"
  /** No file at the model path. */
  | "model-missing"
  /** The file is not a GGUF model, or llama.cpp cannot load it. */
  | "model-invalid";

/**
 * The local model cannot run: the runtime package or the model file is missing or
 * unusable. Its `code` is `PROVIDER_UNAVAILABLE`; `reason` says which part is at fault
 * and the message says what to do.
 */
export class LocalModelUnavailableError extends ProviderUnavailableError {
  constructor(
    readonly reason: LocalModelUnavailableReason,
    message: string,
    options: { readonly cause?: unknown; readonly fields?: Readonly<Record<string, unknown>> } = {},
  ) {
    super(message, { ...options, fields: { provider: "local", reason, ...options.fields } });
    // The base class fixes `name` to its own as a literal type; say which error this is.
    Object.defineProperty(this, "name", { value: "LocalModelUnavailableError", enumerable: false });
  }
}
