// V8 settings that keep a long run's memory small (docs/explanation/start-up-and-memory.md,
// "Memory of a long run"). Plain JavaScript with no dependencies. Applied once a run's model
// has begun to answer, or at the start of a long-lived command, not at launch
// (src/session/memory-settings.ts): changing a V8 setting makes V8 turn down the compiled
// code of Node's own modules and of the compile cache made before the change.
import { setFlagsFromString } from "node:v8";

/** Keeps the young generation at its initial size instead of growing to 2 x 16 MiB. */
export const YOUNG_GENERATION = "--semi-space-growth-factor=1";
/**
 * WebAssembly stays on Liftoff and is never sent to TurboFan. Compilation stays lazy (each
 * function at its first call): these flags hold for the whole process, so a function compiled
 * later is compiled under them too, and compiling fetch's HTTP parser eagerly would only add
 * work before the first request.
 */
export const WASM_BASELINE = "--no-wasm-dynamic-tiering --no-wasm-tier-up";

const YOUNG_GENERATION_OPTION =
  /^--(?:(?:max|min)[-_]semi[-_]space[-_]size|semi[-_]space[-_]growth[-_]factor)(?:=|$)/;
const WASM_TIERING_OPTION =
  /^--(?:no-?)?(?:wasm[-_](?:lazy[-_]compilation|dynamic[-_]tiering|tier[-_]up)|liftoff(?:[-_]only)?)(?:=|$)/;

/**
 * The settings to apply, given node's own options (`process.execArgv`) and `NODE_OPTIONS`:
 * each is left out when the user chose an option of the same kind, so their choice wins.
 *
 * @param {readonly string[]} execArgv
 * @param {string | undefined} nodeOptions
 * @returns {string[]}
 */
export function memoryFlags(execArgv, nodeOptions) {
  const given = [...execArgv, ...(nodeOptions ?? "").split(/\s+/)];
  const has = (/** @type {RegExp} */ pattern) => given.some((option) => pattern.test(option));
  const flags = [];
  if (!has(YOUNG_GENERATION_OPTION)) flags.push(YOUNG_GENERATION);
  if (!has(WASM_TIERING_OPTION)) flags.push(WASM_BASELINE);
  return flags;
}

/**
 * Sets {@link memoryFlags} in this process. They live in this process only: Node sets no
 * environment variable, so the commands the agent runs do not inherit them. A failure is
 * ignored: without them a run only uses more memory.
 */
export function setMemoryFlags(
  execArgv = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS,
) {
  for (const flags of memoryFlags(execArgv, nodeOptions)) {
    try {
      setFlagsFromString(flags);
    } catch {
      // Without them a run only uses more memory.
    }
  }
}
