import { describe, expect, it } from "vitest";
import { lexPlainCommand } from "./strict-lexer.js";
import { braceExpand } from "./words.js";

describe("lexPlainCommand", () => {
  it("splits plain words, quotes and escapes", () => {
    expect(lexPlainCommand("ls -la src")).toEqual(["ls", "-la", "src"]);
    expect(lexPlainCommand(`grep -rn "rm -rf /" docs/`)).toEqual([
      "grep",
      "-rn",
      "rm -rf /",
      "docs/",
    ]);
    expect(lexPlainCommand("echo '$(id)' a\\;b")).toEqual(["echo", "$(id)", "a;b"]);
    expect(lexPlainCommand("cat r''m\n")).toEqual(["cat", "rm"]);
  });

  it("refuses anything the shell would expand or treat as syntax", () => {
    for (const text of [
      "ls; pwd",
      "ls | wc",
      "ls $HOME",
      'echo "$x"',
      "ls ~",
      "ls *.ts",
      "ls {a,b}",
      "ls # c",
      "A=1 ls",
      "ls\npwd",
      "echo `id`",
      "ls 'a",
      'echo "a\\"b"',
      "ls\u200b",
      "ls > x",
      "",
    ]) {
      expect(lexPlainCommand(text), text).toBeNull();
    }
  });
});

describe("braceExpand", () => {
  it("expands lists and sequences like bash", () => {
    expect(braceExpand("{rm,-rf,/}")).toEqual(["rm", "-rf", "/"]);
    expect(braceExpand("a{1..3}b")).toEqual(["a1b", "a2b", "a3b"]);
    expect(braceExpand("x{}y")).toEqual(["x{}y"]);
  });
});
