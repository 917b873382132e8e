import type { AgentEvent } from "@xzatoma/core";
import { summariseInput } from "./summarise-input.js";
import { createTerminalSafeStream, toTerminalSafe, toTerminalSafeLine } from "./terminal-safe.js";

/** Options of {@link createTextRenderer}. */
export interface TextRendererOptions {
  /** Receives the model's text. */
  readonly stdout: NodeJS.WritableStream;
  /** Receives one short line per tool call. */
  readonly stderr: NodeJS.WritableStream;
  readonly color: boolean;
}

/** One line for a subagent starting or ending, indented by its depth. */
export function describeSubagent(
  event: Extract<AgentEvent, { type: "subagent-started" | "subagent-finished" }>,
): string {
  const indent = "  ".repeat(event.depth);
  const who = `subagent ${toTerminalSafeLine(event.label)}`;
  if (event.type === "subagent-started") {
    const under = event.parent === undefined ? "" : ` for ${toTerminalSafeLine(event.parent)}`;
    return `${indent}⇢ ${who} started (depth ${event.depth}${under})`;
  }
  const seconds = (event.durationMs / 1000).toFixed(1);
  return `${indent}⇠ ${who} ${event.stopReason}: ${event.turns} turns, ${event.usage.totalTokens} tokens, ${seconds} s`;
}

/**
 * Renders a run for a person: the model's text streams to stdout as it arrives; tool
 * activity is one dim line each on stderr, so `xzatoma run ... > answer.txt` keeps only
 * the answer. Everything the model or a tool wrote is escaped for the terminal first
 * (see `terminal-safe.ts`).
 */
export function createTextRenderer(options: TextRendererOptions): (event: AgentEvent) => void {
  const dim = (text: string) => (options.color ? `\x1b[2m${text}\x1b[22m` : text);
  const red = (text: string) => (options.color ? `\x1b[31m${text}\x1b[39m` : text);
  const text = createTerminalSafeStream();
  let atLineStart = true;
  const writeText = (safe: string) => {
    if (safe === "") return;
    options.stdout.write(safe);
    atLineStart = safe.endsWith("\n");
  };
  const endLine = () => {
    writeText(text.end());
    if (!atLineStart) options.stdout.write("\n");
    atLineStart = true;
  };
  return (event) => {
    switch (event.type) {
      case "text-delta":
        writeText(text.write(event.delta));
        break;
      case "tool-call-requested":
        endLine();
        options.stderr.write(
          dim(`→ ${toTerminalSafeLine(event.toolName)} ${summariseInput(event.input)}\n`),
        );
        break;
      case "tool-result":
        if (!event.result.success)
          options.stderr.write(red(`  ✗ ${toTerminalSafe(event.result.error ?? "failed")}\n`));
        break;
      case "subagent-started":
        options.stderr.write(dim(`${describeSubagent(event)}\n`));
        break;
      case "subagent-finished":
        options.stderr.write((event.error ? red : dim)(`${describeSubagent(event)}\n`));
        break;
      case "finished":
        endLine();
        break;
      default:
        break;
    }
  };
}
