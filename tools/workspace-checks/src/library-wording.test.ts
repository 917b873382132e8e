// Libraries throw errors with fields and never word a front end's commands: the CLI's
// error table (apps/cli/src/error-table.ts) turns codes and fields into advice such as
// "xzatoma auth login openai". This test reads every library's source (tests and comments
// aside) for a string that names an `xzatoma` command, so CLI wording cannot creep back.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { librarySources } from "./library-sources.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const COMMANDS = [
  "agent",
  "auth",
  "chat",
  "completion",
  "config",
  "history",
  "mcp",
  "models",
  "policy",
  "run",
  "watch",
];
const CLI_COMMAND = new RegExp(`["'\`][^"'\`\\n]*\\bxzatoma (?:${COMMANDS.join("|")})\\b`);

/** `file:line: text` for each line of code (not a comment) whose strings name a CLI command. */
export function cliWording(file: string, text: string): string[] {
  return text
    .split("\n")
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => !/^\s*(\/\/|\*|\/\*)/.test(line) && CLI_COMMAND.test(line))
    .map(({ line, number }) => `${file}:${number}: ${line.trim()}`);
}

describe("library source", () => {
  it("finds a command named in a string, and leaves comments alone", () => {
    expect(cliWording("a.ts", `  throw new Error("sign in with 'xzatoma auth login'");`)).toEqual([
      `a.ts:1: throw new Error("sign in with 'xzatoma auth login'");`,
    ]);
    expect(cliWording("a.ts", "/** For `xzatoma mcp list` and `/mcp`. */\n// xzatoma run")).toEqual(
      [],
    );
  });

  it("names no xzatoma command in what it throws or says", () => {
    const found = librarySources(ROOT).flatMap((file) =>
      cliWording(path.relative(ROOT, file), readFileSync(file, "utf8")),
    );
    expect(found).toEqual([]);
  });
});
