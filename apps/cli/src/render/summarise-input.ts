import { toTerminalSafeLineCut } from "./terminal-safe.js";

/**
 * A tool call's input as one short line (`→ read_file README.md`): its values, with every
 * control, bidirectional and invisible character shown as an escape, cut at `max`
 * characters. The input comes from the model, so it is never printed raw.
 */
export function summariseInput(input: unknown, max = 60): string {
  const text =
    input === null || typeof input !== "object"
      ? String(input)
      : Object.values(input as Record<string, unknown>)
          .map((value) => (typeof value === "string" ? value : JSON.stringify(value)))
          .join(" ");
  return toTerminalSafeLineCut(text, max);
}
