// The completion scripts, generated from the real command tree and run by the real shells:
// bash through `complete`/`compgen` as it completes a command line; zsh and fish checked by
// `zsh -n` / `fish -n` where those shells are installed, and by their structure everywhere.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createProgram } from "../program.js";
import { BIN } from "../cli.test-support.js";
import { completionScript, describeCommands } from "./completion.js";

const program = createProgram(() => {});
const directory = mkdtempSync(path.join(tmpdir(), "xz-completion-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function scriptFile(shell: "bash" | "zsh" | "fish"): string {
  const file = path.join(directory, `xzatoma.${shell}`);
  writeFileSync(file, completionScript(program, shell));
  return file;
}

/** What bash offers for the command line `words`, the cursor on the last word. */
function bashCompletes(...words: string[]): string[] {
  const file = scriptFile("bash");
  const output = execFileSync(
    "bash",
    [
      "--norc",
      "-c",
      'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); ' +
        'COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; ' +
        '"$(complete -p xzatoma | sed -E "s/.* -F ([^ ]+) .*/\\1/")"; printf "%s\\n" "${COMPREPLY[@]}"',
      "completion-test",
      file,
      ...words,
    ],
    { encoding: "utf8", cwd: directory },
  );
  return output.split("\n").filter((line) => line !== "");
}

function hasShell(shell: string): boolean {
  return spawnSync(shell, ["-c", "exit 0"]).status === 0;
}

describe("the command tree the scripts come from", () => {
  it("holds every command of the program, nested ones and completion itself", () => {
    const paths = describeCommands(program).map((spec) => spec.path.join(" "));
    for (const command of program.commands) expect(paths).toContain(command.name());
    expect(paths).toEqual(
      expect.arrayContaining([
        "",
        "chat",
        "run",
        "history list",
        "policy check-command",
        "completion",
      ]),
    );
  });
});

describe("xzatoma completion bash, in bash", () => {
  it("registers a completion function for xzatoma", () => {
    const output = execFileSync(
      "bash",
      ["--norc", "-c", 'source "$1"; complete -p xzatoma', "t", scriptFile("bash")],
      { encoding: "utf8" },
    );
    expect(output).toMatch(/^complete .*-F _xzatoma xzatoma$/m);
  });

  it("completes command names, every command of the program at the top", () => {
    expect(bashCompletes("xzatoma", "ch")).toEqual(["chat"]);
    expect(bashCompletes("xzatoma", "")).toEqual(
      expect.arrayContaining(program.commands.map((command) => command.name())),
    );
    expect(bashCompletes("xzatoma", "history", "")).toEqual(
      expect.arrayContaining(["list", "show", "delete"]),
    );
  });

  it("completes the options of the command being typed", () => {
    const run = bashCompletes("xzatoma", "run", "--p");
    expect(run).toEqual(expect.arrayContaining(["--prompt", "--provider", "--plan"]));
    expect(bashCompletes("xzatoma", "history", "list", "--")).toEqual(
      expect.arrayContaining(["--json", "--limit", "--since", "--help"]),
    );
    expect(bashCompletes("xzatoma", "history", "list", "--")).not.toContain("--prompt");
  });

  it("completes the values an option names, after options that take a value", () => {
    expect(bashCompletes("xzatoma", "run", "--provider", "")).toEqual([
      "ollama",
      "openai",
      "copilot",
      "local",
    ]);
    expect(bashCompletes("xzatoma", "-c", "x.yaml", "run", "--mode", "w")).toEqual(["write"]);
    expect(bashCompletes("xzatoma", "completion", "")).toEqual(["bash", "zsh", "fish"]);
    expect(bashCompletes("xzatoma", "policy", "check-command", "--approval", "")).toEqual([
      "untrusted",
      "on-escalation",
      "never",
    ]);
  });

  it("completes file names for an option that takes a path", () => {
    writeFileSync(path.join(directory, "plan-release.yaml"), "steps: []\n");
    expect(bashCompletes("xzatoma", "run", "--plan", "plan-")).toEqual(["plan-release.yaml"]);
  });
});

describe("xzatoma completion zsh", () => {
  const script = completionScript(program, "zsh");

  it("is a compdef function that knows every command and its options", () => {
    expect(script.startsWith("#compdef xzatoma\n")).toBe(true);
    expect(script).toContain("compdef _xzatoma xzatoma");
    for (const command of program.commands) expect(script).toContain(`'${command.name()}:`);
    expect(script).toContain("'--provider:model provider'");
    expect(script).toContain("compadd -- ollama openai copilot local");
  });

  it("parses with zsh -n, where zsh is installed", () => {
    if (!hasShell("zsh")) {
      // No zsh here: its syntax is checked where it is installed; bash's parser at least
      // sees balanced quotes and blocks (the script uses no zsh-only syntax bash rejects).
      expect(spawnSync("bash", ["-n", scriptFile("zsh")]).status).toBe(0);
      return;
    }
    const result = spawnSync("zsh", ["-n", scriptFile("zsh")], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    // Its function run by zsh on a command line, with zsh's completion functions replaced
    // by ones that print what they were given.
    const complete = (...words: string[]) =>
      execFileSync(
        "zsh",
        [
          "-f",
          "-c",
          'compdef() { :; }; _files() { print -l "<files>"; }; ' +
            '_describe() { print -l -- "${(@)${(P)4}%%:*}"; }; ' +
            'compadd() { shift; print -l -- "$@"; }; ' +
            'source "$1"; shift; words=("$@"); CURRENT=$#; _xzatoma',
          "completion-test",
          scriptFile("zsh"),
          ...words,
        ],
        { encoding: "utf8" },
      )
        .split("\n")
        .filter((line) => line !== "");
    expect(complete("xzatoma", "")).toEqual(
      expect.arrayContaining(program.commands.map((command) => command.name())),
    );
    expect(complete("xzatoma", "history", "")).toEqual(["list", "show", "delete"]);
    expect(complete("xzatoma", "run", "--provider", "")).toEqual([
      "ollama",
      "openai",
      "copilot",
      "local",
    ]);
    expect(complete("xzatoma", "run", "--plan", "")).toEqual(["<files>"]);
    expect(complete("xzatoma", "history", "list", "--")).toContain("--limit");
  });
});

describe("xzatoma completion fish", () => {
  const script = completionScript(program, "fish");

  it("has one complete line per command and per option, every line a complete command", () => {
    const lines = script.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
    for (const line of lines) expect(line).toMatch(/^complete -c xzatoma( |$)/);
    for (const command of program.commands) {
      expect(script).toContain(`-n "__fish_use_subcommand" -a ${command.name()} -d `);
    }
    expect(script).toContain(
      'complete -c xzatoma -n "__fish_seen_subcommand_from run" -l provider -x -a "ollama openai copilot local" -d "model provider"',
    );
    // Quotes balance on every line.
    for (const line of lines) expect(line.replaceAll('\\"', "").split('"').length % 2).toBe(1);
  });

  it("parses with fish -n, where fish is installed", () => {
    if (!hasShell("fish")) {
      expect(
        script.split("\n").filter((line) => line.startsWith("complete ")).length,
      ).toBeGreaterThan(describeCommands(program).length);
      return;
    }
    const result = spawnSync("fish", ["-n", scriptFile("fish")], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    // What fish itself completes with the script loaded.
    const complete = (line: string) =>
      execFileSync(
        "fish",
        ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", scriptFile("fish"), line],
        {
          encoding: "utf8",
        },
      )
        .split("\n")
        .filter((entry) => entry !== "")
        .map((entry) => entry.split("\t")[0]);
    expect(complete("xzatoma ch")).toEqual(["chat"]);
    expect(complete("xzatoma history ")).toEqual(["delete", "list", "show"]);
    expect(complete("xzatoma run --provider ")).toEqual(["copilot", "local", "ollama", "openai"]);
  });
});

describe("the built command", () => {
  it("prints the same script as the program generates, and refuses an unknown shell", () => {
    const bash = spawnSync(process.execPath, [BIN, "completion", "bash"], { encoding: "utf8" });
    expect(bash.status).toBe(0);
    expect(bash.stdout).toBe(completionScript(program, "bash"));
    const unknown = spawnSync(process.execPath, [BIN, "completion", "tcsh"], { encoding: "utf8" });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("tcsh");
  });
});
