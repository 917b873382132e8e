/** V8's heap sized for memory, not speed. */
export declare const OPTIMIZE_FOR_SIZE: string;
/** Keeps the young generation at its initial size. */
export declare const YOUNG_GENERATION: string;
/** WebAssembly stays on Liftoff and is never sent to TurboFan. */
export declare const WASM_BASELINE: string;
/** The settings to apply; each is left out when the operator chose an option of the same kind. */
export declare function memoryFlags(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): string[];
/** Sets {@link memoryFlags} in this process; a failure is ignored. */
export declare function setMemoryFlags(execArgv?: readonly string[], nodeOptions?: string): void;
