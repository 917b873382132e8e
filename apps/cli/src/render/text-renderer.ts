import type { AgentEvent } from "@xzatoma/core";
import type { Spinner } from "./spinner.js";
import { summariseInput } from "./summarise-input.js";
import { describeToolFailure } from "./tool-failure.js";
import { previewToolOutput } from "./tool-preview.js";
import { createTerminalSafeStream, toTerminalSafe, toTerminalSafeLine } from "./terminal-safe.js";

/** Options of {@link createTextRenderer}. */
export interface TextRendererOptions {
  /** Receives the model's text. */
  readonly stdout: NodeJS.WritableStream;
  /** Receives one short line per tool call, with a short view of its output. */
  readonly stderr: NodeJS.WritableStream;
  readonly color: boolean;
  /** Drawn on stderr, with the seconds waited, while the model is asked. Default: none. */
  readonly spinner?: Spinner;
  /** False: the model's text only, no tool lines (`--quiet`). Default true. */
  readonly progress?: boolean;
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
 * activity is one dim line each on stderr, with a short view of what the tool returned
 * (see `tool-preview.ts`), and a spinner waits with the model; so `xzatoma run ... >
 * answer.txt` keeps only the answer. Everything the model or a tool wrote is escaped for the terminal first
 * (see `terminal-safe.ts`).
 */
export function createTextRenderer(options: TextRendererOptions): (event: AgentEvent) => void {
  const dim = (text: string) => (options.color ? `\x1b[2m${text}\x1b[22m` : text);
  const red = (text: string) => (options.color ? `\x1b[31m${text}\x1b[39m` : text);
  const text = createTerminalSafeStream();
  const progress = options.progress !== false;
  const spinner = progress ? options.spinner : undefined;
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
      case "turn-started":
        spinner?.start("waiting for the model", performance.now());
        break;
      case "text-delta":
        spinner?.stop();
        writeText(text.write(event.delta));
        break;
      case "tool-call-requested":
        spinner?.stop();
        endLine();
        if (progress)
          options.stderr.write(
            dim(`→ ${toTerminalSafeLine(event.toolName)} ${summariseInput(event.input)}\n`),
          );
        break;
      case "tool-result":
        if (!event.result.success)
          options.stderr.write(
            red(
              // A failed parallel_subagent's error is its JSON report, for the model.
              `  ✗ ${toTerminalSafe(event.toolName === "parallel_subagent" ? describeToolFailure(event.toolName, event.result.error ?? "") : (event.result.error ?? "failed"))}\n`,
            ),
          );
        else if (progress)
          for (const line of previewToolOutput(event.toolName, event.result))
            options.stderr.write(dim(`  ${line}\n`));
        break;
      case "subagent-started":
        if (progress) options.stderr.write(dim(`${describeSubagent(event)}\n`));
        break;
      case "subagent-finished":
        if (progress || event.error)
          options.stderr.write((event.error ? red : dim)(`${describeSubagent(event)}\n`));
        break;
      case "finished":
        spinner?.stop();
        endLine();
        break;
      default:
        break;
    }
  };
}
