import type { AgentEvent } from "@xzatoma/core";
import { toTerminalSafeJson } from "./terminal-safe.js";

/**
 * Writes each event as one JSON line, for scripts and CI (`--json`). Characters that JSON
 * leaves raw but a terminal or a line splitter acts on (DEL, C1 controls, U+2028, U+2029,
 * bidirectional and invisible characters) are written as `\uHHHH`; the values parse the same.
 */
export function createJsonRenderer(output: NodeJS.WritableStream): (event: AgentEvent) => void {
  return (event) => {
    output.write(`${toTerminalSafeJson(event)}\n`);
  };
}
