import { setFlagsFromString } from "node:v8";

/**
 * V8 settings the bash grammar is compiled under: every function compiled at once with
 * Liftoff (V8's baseline WebAssembly compiler), and never tiered up to TurboFan (its
 * optimising compiler). This is what `node --liftoff-only` does to every module, applied to
 * one module.
 *
 * Why: the grammar's generated lexer is one 160 KB function whose loop body is the whole
 * lexer, and Liftoff charges the machine-code length of a loop body to the tier-up budget
 * on every iteration, so V8 sends the lexer to TurboFan after a few dozen characters.
 * TurboFan then takes ~0.5 s of CPU and ~700 MB of compiler memory for that one function:
 * a run that checked five `ls` commands peaked at ~590 MiB instead of ~125 MiB. The
 * optimised lexer parses a 32 KB command (the longest the policy parses) in ~7.0 ms of CPU
 * instead of ~7.5 ms, so it would take about a thousand such commands to repay the
 * compilation. Liftoff code is the same program compiled by a simpler compiler: what the
 * grammar accepts does not change.
 */
const BASELINE_ONLY = "--no-wasm-lazy-compilation --no-wasm-dynamic-tiering --no-wasm-tier-up";

/** V8's defaults for the same settings, put back as soon as the module is compiled. */
const V8_DEFAULTS = "--wasm-lazy-compilation --wasm-dynamic-tiering --wasm-tier-up";

/**
 * Node options that set how WebAssembly is compiled. A process started with one of them
 * chose its own settings: they are left alone (JavaScript cannot read V8's flags, so
 * putting "the defaults" back would overwrite that choice).
 */
const WASM_TIERING_OPTION =
  /^--(?:no-?)?(?:wasm[-_](?:lazy[-_]compilation|dynamic[-_]tiering|tier[-_]up)|liftoff(?:[-_]only)?)(?:=|$)/;

/** Whether modules may be compiled baseline-only in a process started with `execArgv`. */
export function mayPinBaselineTier(execArgv: readonly string[]): boolean {
  return !execArgv.some((option) => WASM_TIERING_OPTION.test(option));
}

interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => WebAssembly.Module;
}

/**
 * The `WebAssembly` global, looked up when used (Node started with `--jitless` has none).
 * The ES2023 libraries this package is typed against declare only its types.
 */
function webAssembly(): WebAssemblyApi {
  return (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
}

/**
 * Compiles WebAssembly synchronously, baseline-only (see {@link BASELINE_ONLY}). The
 * settings are process-wide V8 flags, so they are changed only around the synchronous
 * compilation: no JavaScript runs in between, and compilation is eager, so every function's
 * Liftoff code exists, without tier-up checks, before the defaults are back (with lazy
 * compilation a function would be compiled at its first call, under the defaults). Modules
 * compiled before or after, such as web-tree-sitter's own runtime or undici's HTTP parser,
 * keep V8's default tiering.
 */
export function compileBaselineOnly(
  bytes: Uint8Array,
  execArgv: readonly string[] = process.execArgv,
): WebAssembly.Module {
  const { Module } = webAssembly();
  if (!mayPinBaselineTier(execArgv)) return new Module(bytes);
  setFlagsFromString(BASELINE_ONLY);
  try {
    return new Module(bytes);
  } finally {
    setFlagsFromString(V8_DEFAULTS);
  }
}
