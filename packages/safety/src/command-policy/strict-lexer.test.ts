import { describe, expect, it } from "vitest";
import { lexPlainCommands } from "./strict-lexer.js";

describe("lexPlainCommands", () => {
  it("splits plain words, quotes and escapes", () => {
    expect(lexPlainCommands("ls -la src")).toEqual([["ls", "-la", "src"]]);
    expect(lexPlainCommands(`grep -rn "rm -rf /" docs/`)).toEqual([
      ["grep", "-rn", "rm -rf /", "docs/"],
    ]);
    expect(lexPlainCommands("echo '$(id)' a\\;b")).toEqual([["echo", "$(id)", "a;b"]]);
    expect(lexPlainCommands("cat r''m\n")).toEqual([["cat", "rm"]]);
    expect(lexPlainCommands("git diff HEAD~1")).toEqual([["git", "diff", "HEAD~1"]]);
  });

  it("splits commands joined by |, &&, || and ; and drops discarding redirects", () => {
    expect(lexPlainCommands("ls | wc -l")).toEqual([["ls"], ["wc", "-l"]]);
    expect(lexPlainCommands("git status && git log -1;pwd || true")).toEqual([
      ["git", "status"],
      ["git", "log", "-1"],
      ["pwd"],
      ["true"],
    ]);
    expect(lexPlainCommands("grep x f 2>/dev/null | head 2>&1")).toEqual([
      ["grep", "x", "f"],
      ["head"],
    ]);
    expect(lexPlainCommands("ls >/dev/null")).toEqual([["ls"]]);
    expect(lexPlainCommands("tr -d x < README.md | wc")).toEqual([["tr", "-d", "x"], ["wc"]]);
    expect(lexPlainCommands("< 'a b' sort -u")).toEqual([["sort", "-u"]]);
  });

  it("refuses anything the shell would expand or treat as syntax", () => {
    for (const text of [
      "ls $HOME",
      'echo "$x"',
      "ls ~",
      "a=~/x",
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
      "cat <",
      "cat < | wc",
      "cat <<EOF",
      "cat <(ls)",
      "cat<x",
      "cat < < x",
      "ls 2>x",
      "ls >/dev/nullx",
      "ls & pwd",
      "ls |& wc",
      "ls ||",
      "| ls",
      "ls && && pwd",
      "",
    ]) {
      expect(lexPlainCommands(text), text).toBeNull();
    }
  });
});
