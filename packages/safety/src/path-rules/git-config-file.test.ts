import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GitConfigSyntaxError, parseGitConfig } from "./git-config-file.js";

const directory = mkdtempSync(path.join(tmpdir(), "xz-git-config-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** What git itself reads from `text`: `section.sub.name=value` lines, as `git config --list` prints them. */
function gitList(text: string): string[] {
  const file = path.join(directory, `config-${String(Math.random()).slice(2)}`);
  writeFileSync(file, text);
  const output = execFileSync("git", ["config", "--file", file, "--list", "-z"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return output
    .split("\0")
    .filter((entry) => entry !== "")
    .map((entry) => entry.replace("\n", "="));
}

function ourList(text: string): string[] {
  return parseGitConfig(text).map((entry) => {
    const key = [entry.section, entry.subsection, entry.name]
      .filter((part) => part !== undefined && part !== "")
      .join(".");
    return entry.value === undefined ? key : `${key}=${entry.value}`;
  });
}

describe("parseGitConfig", () => {
  it.each([
    ["plain", "[core]\n\thooksPath = .githooks\n"],
    ["subsection", '[includeIf "gitdir:~/work/"]\n\tpath = ../work.inc\n'],
    ["old subsection", "[Filter.Lint]\n\tclean = ./scripts/clean.sh\n"],
    ["quotes and escapes", '[alias]\n\tx = "!sh -c \\"echo a;b\\"" # c\n\ty = a\\tb\\\\c\n'],
    ["continuation", "[core]\n\tpager = less \\\n -R\n"],
    ["comments", "; top\n# more\n[core] ; c\n\tbare\n\tname = value ; c\n"],
    ["case", "[CORE]\n\tHooksPath = Hooks\n"],
    ["header and variable on one line", "[core] hooksPath = h\n"],
    ["subsection with quote", '[remote "a\\"b"]\n\turl = x\n'],
    ["blank values", "[core]\n\tempty =\n\tspaces =   \n"],
    ["crlf", "[core]\r\n\thooksPath = h\r\n"],
    ["a variable before any section", "x = 1\n[core]\n\ty = 2\n"],
  ])("reads %s as git does", (_name, text) => {
    expect(ourList(text)).toEqual(gitList(text));
  });

  it.each([
    ["an unclosed header", "[core\n\tx = 1\n"],
    ["an unclosed quote", '[core]\n\tx = "abc\n'],
    ["an unknown escape", "[core]\n\tx = a\\qb\n"],
    ["a bad variable name", "[core]\n\t1x = a\n"],
  ])("refuses %s, as git does", (_name, text) => {
    expect(() => gitList(text)).toThrow();
    expect(() => parseGitConfig(text)).toThrow(GitConfigSyntaxError);
  });
});
