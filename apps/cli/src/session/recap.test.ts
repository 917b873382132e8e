import type { Message } from "@xzatoma/conversation";
import { describe, expect, it } from "vitest";
import { formatRecap } from "./recap.js";

const user = (content: string): Message => ({ role: "user", content });
const answer = (content: string, tools: string[] = []): Message => ({
  role: "assistant",
  content,
  toolCalls: tools.map((name, index) => ({ id: `c${index}`, name, input: {} })),
});
const result = (name: string): Message => ({
  role: "tool",
  toolCallId: "c0",
  toolName: name,
  content: "ok",
  isError: false,
});

describe("formatRecap", () => {
  it("shows the last exchanges with the tools called and the files changed", () => {
    const messages = [
      user("one"),
      answer("First."),
      user("two"),
      answer("", ["read_file", "read_file", "write_file"]),
      result("read_file"),
      answer("Second."),
      user("three"),
      answer("Third."),
      user("four"),
      answer("Fourth."),
    ];
    expect(formatRecap(messages, ["a.txt", "b/c.md"], { color: false })).toBe(
      [
        "Recap (3 exchanges of 4):",
        "  you: two",
        "  (tools: read_file ×2, write_file)",
        "  xzatoma: Second.",
        "  you: three",
        "  xzatoma: Third.",
        "  you: four",
        "  xzatoma: Fourth.",
        "Files changed: a.txt, b/c.md",
        "",
      ].join("\n"),
    );
  });

  it("keeps each message to one escaped line", () => {
    const text = formatRecap([user("a\nb\x1b[2J"), answer("x".repeat(300))], [], {
      color: false,
      width: 20,
    });
    expect(text).toContain("  you: a b\\x1b[2J\n");
    expect(text).toContain(`  xzatoma: ${"x".repeat(19)}…\n`);
    expect(text).not.toContain("\x1b");
  });
});
