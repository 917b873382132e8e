// How a command's action reaches its handler: the handler's module loads only when the
// command runs, receives one invocation (the positional argument and the options merged with
// the program's global ones) and returns the exit code.
import type { Command } from "commander";
import type { CommandOptionSource } from "../config/flag-mapping.js";
import { useJitlessZod } from "../zod-settings.js";

/** One command invocation, as the handlers receive it. */
export interface Invocation {
  /** The positional argument (`<id>`, `<file>`, `[provider]`), when the command takes one. */
  readonly arg: string | undefined;
  /** The command's options merged with the global ones. */
  readonly options: Record<string, unknown>;
  /** Where each option came from, for configuration precedence. */
  readonly source: CommandOptionSource;
}

/** A commander action. */
export type CommandAction = (...params: unknown[]) => Promise<void>;

/** What a command's registration needs from the program. */
export interface CommandContext {
  /** Wraps a handler as the action of a command: its result becomes the exit code. */
  readonly act: (handler: (call: Invocation) => Promise<number>) => CommandAction;
  /** Sets the process's exit code, for an action that does not go through `act`. */
  readonly setExitCode: (code: number) => void;
}

/** The options of a command together with the program's global ones, for config precedence. */
export function withGlobals(command: Command): CommandOptionSource {
  return {
    opts: () => command.optsWithGlobals(),
    getOptionValueSource: (key) => command.getOptionValueSourceWithGlobals(key),
  };
}

/** The context whose actions report their exit code to `setExitCode`. */
export function commandContext(setExitCode: (code: number) => void): CommandContext {
  // Every action: commander passes the positional argument (if any), the command's own
  // options and the command; handlers get one invocation with the options merged with the
  // program's global ones.
  const act =
    (handler: (call: Invocation) => Promise<number>): CommandAction =>
    async (...params: unknown[]) => {
      const command = params.at(-1) as Command;
      const first = params.length > 2 ? params[0] : undefined;
      // A variadic argument (`run [prompt...]`) arrives as a list of words.
      const arg = Array.isArray(first)
        ? first.length > 0
          ? first.join(" ")
          : undefined
        : (first as string | undefined);
      await useJitlessZod();
      setExitCode(
        await handler({ arg, options: command.optsWithGlobals(), source: withGlobals(command) }),
      );
    };
  return { act, setExitCode };
}
