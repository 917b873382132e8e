import type { AgentEvent } from "@xzatoma/core";

/** Writes each event as one JSON line, for scripts and CI (`--json`). */
export function createJsonRenderer(output: NodeJS.WritableStream): (event: AgentEvent) => void {
  return (event) => {
    output.write(`${JSON.stringify(event)}\n`);
  };
}
