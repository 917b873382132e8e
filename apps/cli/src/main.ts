import { CommanderError } from "commander";
import { presentError } from "./error-table.js";
import { ExitCode } from "./exit-codes.js";
import { toTerminalSafe } from "./render/terminal-safe.js";
import { createProgram } from "./program.js";
import { UsageError } from "./usage-error.js";

/**
 * True for XZatoma errors (the `Symbol.for("xzatoma.error")` marker). Checked here rather
 * than imported, so `--help` loads no agent package.
 */
function isXzatomaError(
  value: unknown,
): value is Error & { code: string; fields?: Record<string, unknown> } {
  return (
    value instanceof Error &&
    (value as unknown as Record<symbol, unknown>)[Symbol.for("xzatoma.error")] === true
  );
}

/**
 * Runs the `xzatoma` command line and resolves with the exit code.
 * Nothing is printed to stdout except what the command produces.
 */
export async function main(argv: readonly string[]): Promise<number> {
  // A closed pipe (`xzatoma run ... | head`) ends the output, not the process with a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(process.exitCode ?? ExitCode.ok);
      throw error;
    });
  }
  let exitCode: number = ExitCode.ok;
  // Bare `xzatoma` opens chat, as other agent command lines do.
  const args = argv.length === 0 ? ["chat"] : argv;
  const program = createProgram((code) => (exitCode = code), args[0]);
  try {
    await program.parseAsync([...args], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" to commander; they exit 0.
      if (error.exitCode === 0) return ExitCode.ok;
      // `run --json` reports a usage error in its event stream too.
      if (args[0] === "run" && args.includes("--json"))
        process.stdout.write(
          `${JSON.stringify({ type: "error", error: { code: "USAGE", message: error.message.replace(/^error: /, "") }, exitCode: ExitCode.usage })}\n`,
        );
      return ExitCode.usage;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n`);
      return ExitCode.usage;
    }
    if (isXzatomaError(error)) {
      const presented = presentError(error);
      process.stderr.write(`${presented.lines.map((line) => toTerminalSafe(line)).join("\n")}\n`);
      return presented.exit;
    }
    throw error;
  }
}
