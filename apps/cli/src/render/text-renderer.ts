import type { AgentEvent } from "@xzatoma/core";
import { summariseInput } from "./summarise-input.js";

/** Options of {@link createTextRenderer}. */
export interface TextRendererOptions {
  /** Receives the model's text. */
  readonly stdout: NodeJS.WritableStream;
  /** Receives one short line per tool call. */
  readonly stderr: NodeJS.WritableStream;
  readonly color: boolean;
}

/**
 * Renders a run for a person: the model's text streams to stdout as it arrives; tool
 * activity is one dim line each on stderr, so `xzatoma run ... > answer.txt` keeps only
 * the answer.
 */
export function createTextRenderer(options: TextRendererOptions): (event: AgentEvent) => void {
  const dim = (text: string) => (options.color ? `\x1b[2m${text}\x1b[22m` : text);
  const red = (text: string) => (options.color ? `\x1b[31m${text}\x1b[39m` : text);
  let atLineStart = true;
  const endLine = () => {
    if (!atLineStart) options.stdout.write("\n");
    atLineStart = true;
  };
  return (event) => {
    switch (event.type) {
      case "text-delta":
        options.stdout.write(event.delta);
        atLineStart = event.delta.endsWith("\n");
        break;
      case "tool-call-requested":
        endLine();
        options.stderr.write(dim(`→ ${event.toolName} ${summariseInput(event.input)}\n`));
        break;
      case "tool-result":
        if (!event.result.success)
          options.stderr.write(red(`  ✗ ${event.result.error ?? "failed"}\n`));
        break;
      case "finished":
        endLine();
        break;
      default:
        break;
    }
  };
}
