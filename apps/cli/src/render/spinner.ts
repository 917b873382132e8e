import { shouldUseColor } from "./color.js";

/** A spinner on stderr while the model thinks; silent when stderr is not a terminal. */
export interface Spinner {
  /** Shows `label`; with `since` (a `performance.now()` time), also the seconds since then. */
  start(label: string, since?: number): void;
  stop(): void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * A spinner drawn on `output` when `enabled`. It is dim only when `color` is on, which by
 * default follows {@link shouldUseColor} (so `NO_COLOR` keeps it plain).
 */
export function createSpinner(
  output: NodeJS.WriteStream | NodeJS.WritableStream,
  enabled: boolean,
  color: boolean = shouldUseColor(output as { isTTY?: boolean }, process.env),
): Spinner {
  let timer: NodeJS.Timeout | undefined;
  let frame = 0;
  let label = "";
  let startedAt: number | undefined;
  const dim = (text: string) => (color ? `\x1b[2m${text}\x1b[22m` : text);
  const clear = () => output.write("\r\x1b[2K");
  return {
    start(text, since) {
      if (!enabled) return;
      label = text;
      startedAt = since;
      if (timer) return;
      timer = setInterval(() => {
        frame = (frame + 1) % FRAMES.length;
        const elapsed =
          startedAt === undefined ? "" : ` ${Math.floor((performance.now() - startedAt) / 1000)} s`;
        output.write(`\r\x1b[2K${dim(`${FRAMES[frame] ?? ""} ${label}${elapsed}`)}`);
      }, 80);
      timer.unref();
    },
    stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = undefined;
      clear();
    },
  };
}
