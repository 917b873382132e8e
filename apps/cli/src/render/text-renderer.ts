import type { AgentEvent } from "@xzatoma/core";

/** Options of {@link createTextRenderer}. */
export interface TextRendererOptions {
  /** Receives the model's text. */
  readonly stdout: NodeJS.WritableStream;
  /** Receives one short line per tool call. */
  readonly stderr: NodeJS.WritableStream;
  readonly color: boolean;
}

const MAX_SUMMARY = 60;

function summarise(input: unknown): string {
  if (input === null || typeof input !== "object") return String(input);
  const values = Object.values(input as Record<string, unknown>).map((value) =>
    typeof value === "string" ? value : JSON.stringify(value),
  );
  const text = values.join(" ");
  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY - 1)}…` : text;
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
        options.stderr.write(dim(`→ ${event.toolName} ${summarise(event.input)}\n`));
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
