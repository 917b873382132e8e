import type { ConversationTree, HistoryMessage, StoredMessage } from "@xzatoma/persistence";
import { expect, it } from "vitest";
import { formatConversationLine, renderConversationTree } from "./render-conversation.js";

const stored = (message: HistoryMessage, sequence: number): StoredMessage => ({
  sequence,
  role: message.role,
  message,
  pruned: false,
  pinned: false,
  createdAt: "2026-11-22T03:00:00Z",
});

const tree: ConversationTree = {
  id: "01JCONVERSATION0000000000",
  parentId: undefined,
  label: undefined,
  depth: 0,
  title: "clean up\x1b]0;owned\x07",
  provider: "ollama",
  model: "llama3.2",
  status: "completed",
  stopReason: "completed",
  startedAt: "2026-11-22T03:00:00Z",
  completedAt: "2026-11-22T03:01:00Z",
  usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
  turns: 1,
  children: [],
  messages: [
    stored({ role: "user", content: "clean up" }, 0),
    stored(
      {
        role: "assistant",
        content: "Sure.\x1b[2J\nNext \u202eline",
        toolCalls: [{ id: "c1", name: "terminal", input: { command: "ls\r\u009b2K\u2028" } }],
      },
      1,
    ),
    stored(
      {
        role: "tool",
        toolCallId: "c1",
        toolName: "terminal",
        content: "out\x1b]52;c;eA==\x07",
        isError: false,
      },
      2,
    ),
  ],
};

it("replays a conversation with the model's and tools' controls shown as escapes", () => {
  expect(renderConversationTree(tree)).toBe(
    [
      "conversation 01JCONVERSATION0000000000 · llama3.2 · completed (completed) · 2026-11-22T03:00:00Z",
      "  user: clean up",
      "  assistant: Sure.\\x1b[2J",
      "  Next \\u202eline",
      '  assistant → terminal {"command":"ls\\r\\u009b2K\\u2028"}',
      "  terminal ✓ out\\x1b]52;c;eA==\\x07",
    ].join("\n"),
  );
});

it("lists a conversation's title escaped on one line", () => {
  expect(formatConversationLine(tree)).toContain("llama3.2  clean up\\x1b]0;owned\\x07");
});
