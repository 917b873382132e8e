import { shouldUseColor } from "./color.js";

/** A spinner on stderr while the model thinks; silent when stderr is not a terminal. */
export interface Spinner {
  start(label: string): void;
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
  const dim = (text: string) => (color ? `\x1b[2m${text}\x1b[22m` : text);
  const clear = () => output.write("\r\x1b[2K");
  return {
    start(text) {
      if (!enabled) return;
      label = text;
      if (timer) return;
      timer = setInterval(() => {
        frame = (frame + 1) % FRAMES.length;
        output.write(`\r\x1b[2K${dim(`${FRAMES[frame] ?? ""} ${label}`)}`);
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
