/** A spinner on stderr while the model thinks; silent when stderr is not a terminal. */
export interface Spinner {
  start(label: string): void;
  stop(): void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export function createSpinner(
  output: NodeJS.WriteStream | NodeJS.WritableStream,
  enabled: boolean,
): Spinner {
  let timer: NodeJS.Timeout | undefined;
  let frame = 0;
  let label = "";
  const clear = () => output.write("\r\x1b[2K");
  return {
    start(text) {
      if (!enabled) return;
      label = text;
      if (timer) return;
      timer = setInterval(() => {
        frame = (frame + 1) % FRAMES.length;
        output.write(`\r\x1b[2K\x1b[2m${FRAMES[frame] ?? ""} ${label}\x1b[22m`);
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
