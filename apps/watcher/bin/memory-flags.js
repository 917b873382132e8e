// V8 settings that keep the service's memory flat and small through a long backlog
// (docs/how-to/deploy-the-watcher.md, "Memory"). Plain JavaScript with no dependencies: the bin
// loads it before anything else. A variant of apps/cli/bin/memory-flags.js (apps cannot import
// each other, and the bin must load nothing else first): the watcher adds --optimize-for-size.
import { setFlagsFromString } from "node:v8";

/**
 * V8's heap sized for memory, not speed: among other things the old generation grows by a
 * smaller factor. Unlike --max-semi-space-size, it takes effect when set at run time.
 */
export const OPTIMIZE_FOR_SIZE = "--optimize-for-size";
/**
 * Keeps the young generation at its initial size instead of growing it (to 128 MiB through a
 * backlog). --max-semi-space-size would do the same, but V8 reads it only when the heap is
 * created; the growth factor is read each time V8 considers growing.
 */
export const YOUNG_GENERATION = "--semi-space-growth-factor=1";
/** WebAssembly (fetch's HTTP parser) stays on Liftoff and is never sent to TurboFan. */
export const WASM_BASELINE = "--no-wasm-dynamic-tiering --no-wasm-tier-up";

const OPTIMIZE_FOR_SIZE_OPTION = /^--(?:no-?)?optimize[-_]for[-_]size(?:=|$)/;
const YOUNG_GENERATION_OPTION =
  /^--(?:(?:max|min)[-_]semi[-_]space[-_]size|semi[-_]space[-_]growth[-_]factor)(?:=|$)/;
const WASM_TIERING_OPTION =
  /^--(?:no-?)?(?:wasm[-_](?:lazy[-_]compilation|dynamic[-_]tiering|tier[-_]up)|liftoff(?:[-_]only)?)(?:=|$)/;

/**
 * The settings to apply, given node's own options (`process.execArgv`) and `NODE_OPTIONS`:
 * each is left out when the operator chose an option of the same kind, so their choice wins.
 * --optimize-for-size also caps the young generation when set at run time, so an operator's
 * young-generation size leaves it out too.
 *
 * @param {readonly string[]} execArgv
 * @param {string | undefined} nodeOptions
 * @returns {string[]}
 */
export function memoryFlags(execArgv, nodeOptions) {
  const given = [...execArgv, ...(nodeOptions ?? "").split(/\s+/)];
  const has = (/** @type {RegExp} */ pattern) => given.some((option) => pattern.test(option));
  const flags = [];
  if (!has(OPTIMIZE_FOR_SIZE_OPTION) && !has(YOUNG_GENERATION_OPTION)) {
    flags.push(OPTIMIZE_FOR_SIZE);
  }
  if (!has(YOUNG_GENERATION_OPTION)) flags.push(YOUNG_GENERATION);
  if (!has(WASM_TIERING_OPTION)) flags.push(WASM_BASELINE);
  return flags;
}

/**
 * Sets {@link memoryFlags} in this process. They live in this process only: Node sets no
 * environment variable, so the commands the plans run do not inherit them. A failure is
 * ignored: without them the service only uses more memory.
 */
export function setMemoryFlags(
  execArgv = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS,
) {
  for (const flags of memoryFlags(execArgv, nodeOptions)) {
    try {
      setFlagsFromString(flags);
    } catch {
      // Without them the service only uses more memory.
    }
  }
}
