import type { AgentEvent } from "@xzatoma/core";
import type { AgentRuntime } from "@xzatoma/runtime";

/** Applies the memory settings of `bin/memory-flags.js` to this process. */
export type ApplyMemorySettings = () => void;

/** The events that say a model has begun to answer: its first request is behind the run. */
const ANSWERED: ReadonlySet<AgentEvent["type"]> = new Set([
  "text-delta",
  "tool-call-requested",
  "usage",
  "error",
  "finished",
]);

/** Sets the V8 settings of `bin/memory-flags.js`, loading `node:v8` only now. */
export const applyMemorySettings: ApplyMemorySettings = () => {
  void import("../../bin/memory-flags.js").then(
    ({ setMemoryFlags }) => setMemoryFlags(),
    () => undefined, // Without them a run only uses more memory.
  );
};

/**
 * Applies the memory settings once the runtime's model has begun to answer, not at launch.
 * Any V8 setting changed at run time makes V8 turn down the compiled code Node ships for its
 * own modules and the compile cache's entries made before it, which cost about ten
 * milliseconds before the first request; the settings matter only to a long run
 * (docs/explanation/start-up-and-memory.md, "Memory of a long run"). Once per runtime;
 * applying them again is harmless.
 */
export function applyMemorySettingsOnFirstAnswer(
  runtime: Pick<AgentRuntime, "subscribe">,
  apply: ApplyMemorySettings = applyMemorySettings,
): void {
  let applied = false;
  const unsubscribe = runtime.subscribe((event) => {
    if (applied || !ANSWERED.has(event.type)) return;
    applied = true;
    unsubscribe();
    apply();
  });
}
