// The command tree built for one command: the same command, help and errors as the whole
// tree gives, without the other commands' definitions.
import { type Command, CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { createProgram } from "./program.js";

/** What `xzatoma ARGS` prints and how it ends, with the tree built for `firstWord`. */
async function outcome(args: string[], firstWord: string | undefined) {
  let out = "";
  let err = "";
  const program = createProgram(() => undefined, firstWord);
  const capture = (command: Command) => {
    command.configureOutput({
      writeOut: (text) => (out += text),
      writeErr: (text) => (err += text),
    });
    for (const sub of command.commands) capture(sub);
  };
  capture(program);
  let exitCode: number | undefined;
  try {
    await program.parseAsync(args, { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    exitCode = error.exitCode;
  }
  return { out, err, exitCode, commands: program.commands.map((command) => command.name()) };
}

describe("the command tree for the command a line names", () => {
  it("defines only that command, and helps and refuses exactly as the whole tree", async () => {
    const whole = await outcome(["run", "--help"], undefined);
    const only = await outcome(["run", "--help"], "run");
    expect(only.commands).toEqual(["run"]);
    expect(whole.commands.length).toBeGreaterThan(10);
    expect(only.out).toContain("--max-turns <n>");
    expect(only.out).toBe(whole.out);
    expect(only.exitCode).toBe(0);

    const wholeBad = await outcome(["history", "list", "--bogus"], undefined);
    const onlyBad = await outcome(["history", "list", "--bogus"], "history");
    expect(onlyBad.err).toContain("--bogus");
    expect(onlyBad.err).toBe(wholeBad.err);
    expect(onlyBad.exitCode).toBe(wholeBad.exitCode);
  });

  it("builds the whole tree for a word that names no command, and for completion", async () => {
    const typo = await outcome(["rnu"], "rnu");
    expect(typo.err).toContain("(Did you mean run?)");
    expect(typo.commands.length).toBeGreaterThan(10);
    expect((await outcome(["--help"], "--help")).out).toContain("history");
    expect(createProgram(() => undefined, "completion").commands.length).toBe(
      createProgram(() => undefined).commands.length,
    );
  });
});
