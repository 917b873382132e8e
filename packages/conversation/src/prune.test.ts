import { describe, expect, it } from "vitest";
import { createConversation, type Conversation } from "./conversation.js";
import {
  assistantMessage,
  systemMessage,
  toolMessage,
  userMessage,
  type Message,
} from "./message.js";
import { createHeuristicCounter, countMessageTokens } from "./token-counter.js";
import { seededRandom, syntheticTurn, toolPairingProblems } from "./test-support.js";

const counter = createHeuristicCounter();
const recount = (messages: readonly Message[]) =>
  messages.reduce((total, message) => total + countMessageTokens(message, counter), 0);

describe("pruning a 2,000-turn conversation", () => {
  it("stays under budget and keeps what matters, with valid tool pairing after every append", () => {
    const maxTokens = 10_000;
    const conversation = createConversation({ maxTokens, minRetainTurns: 5 });
    const random = seededRandom(42);
    const system = systemMessage("You are XZatoma, an autonomous agent.");
    const instructions = systemMessage("Project instructions: run pnpm test before finishing.");
    conversation.append(system);
    conversation.append(instructions, { pinned: true });
    const answered = new Set<string>();
    const userTurns: Message[] = [];
    let plan: Message | undefined;
    let prunes = 0;
    let appended = 2;

    for (let turn = 1; turn <= 2000; turn += 1) {
      for (const message of syntheticTurn(turn, random)) {
        const pinned = turn === 3 && message.role === "user";
        const pinnedMessage = pinned ? userMessage(`Active plan: ${message.content}`) : message;
        if (pinned) plan = pinnedMessage;
        if (message.role === "user") userTurns.push(pinnedMessage);
        if (message.role === "tool") answered.add(message.toolCallId);
        const update = conversation.append(pinnedMessage, { pinned });
        appended += 1;
        if (update.pruned) {
          prunes += 1;
          expect(update.pruned.trimmedRetainedTurns).toBe(false);
          expect(update.pruned.withinTarget).toBe(true);
        }

        const sent = conversation.forModel();
        const status = conversation.status();
        expect(status.tokens).toBeLessThanOrEqual(0.8 * maxTokens);
        expect(status.tokens).toBe(recount(sent)); // running totals match a full recount
        expect(toolPairingProblems(sent, answered)).toEqual([]);
        expect(sent[0]).toBe(system);
        expect(sent).toContain(instructions);
        expect(sent).toContain(userTurns[0]);
        if (plan) expect(sent).toContain(plan);
      }
      if (turn % 100 === 0 || turn === 2000) expectLastTurnsKept(conversation, 5);
    }

    const entries = conversation.entries();
    expect(entries.filter((entry) => !entry.summary)).toHaveLength(appended);
    expect(entries.filter((entry) => entry.summary)).toHaveLength(1);
    expect(conversation.forModel().filter((message) => message.role === "system")).toHaveLength(3);
    expect(prunes).toBeGreaterThan(100);
    expect(conversation.status().prunedMessages).toBeGreaterThan(9000);
  });
});

function expectLastTurnsKept(conversation: Conversation, turns: number): void {
  const entries = conversation.entries().filter((entry) => !entry.summary);
  const lastTurn = entries.at(-1)?.turn ?? 0;
  const recent = entries.filter((entry) => entry.turn > lastTurn - turns);
  expect(recent.every((entry) => !entry.pruned)).toBe(true);
  expect(recent.filter((entry) => entry.message.role === "user")).toHaveLength(turns);
}

function exchange(id: string, path: string, output: string): Message[] {
  return [
    assistantMessage("", [{ id, name: "read_file", input: { path } }]),
    toolMessage({ toolCallId: id, toolName: "read_file", content: output, isError: false }),
  ];
}

describe("the summary", () => {
  function prunedConversation() {
    const conversation = createConversation({ maxTokens: 1_000, minRetainTurns: 1 });
    conversation.append(systemMessage("system prompt"));
    conversation.append(userMessage("Refactor the parser"));
    conversation.append(
      assistantMessage("", [
        {
          id: "c1",
          name: "copy_path",
          input: { source_path: "src/a.ts", destination: "src/b.ts" },
        },
        { id: "c2", name: "diff", input: { path_a: "src/a.ts", path_b: "src/c.ts" } },
      ]),
    );
    conversation.append(
      toolMessage({ toolCallId: "c1", toolName: "copy_path", content: "copied", isError: false }),
    );
    conversation.append(
      toolMessage({ toolCallId: "c2", toolName: "diff", content: "x".repeat(1200), isError: true }),
    );
    for (const message of exchange("c3", "README.md", "y".repeat(1200)))
      conversation.append(message);
    conversation.append(userMessage("Now add tests"));
    const update = conversation.append(assistantMessage("z".repeat(1200)));
    return { conversation, update };
  }

  it("names the tools and files and counts what was dropped", () => {
    const { conversation, update } = prunedConversation();
    expect(update.pruned).toBeDefined();
    expect(update.pruned?.dropped).toHaveLength(5);
    expect(update.pruned?.toolCalls).toBe(3);
    const summary = conversation.summary() ?? "";
    expect(summary).toContain("5 messages (turn 1)");
    expect(summary).toContain("0 user, 2 assistant, 3 tool results");
    expect(summary).toMatch(/copy_path ×1/);
    expect(summary).toMatch(/diff ×1 \(1 failed\)/);
    expect(summary).toMatch(/read_file ×1/);
    for (const file of ["src/a.ts", "src/b.ts", "src/c.ts", "README.md"])
      expect(summary).toContain(file);

    const sent = conversation.forModel();
    expect(sent[1]).toEqual(systemMessage(summary));
    expect(sent.map((message) => message.role)).toEqual([
      "system",
      "system",
      "user",
      "user",
      "assistant",
    ]);
    const entries = conversation.entries();
    expect(entries.filter((entry) => entry.pruned)).toHaveLength(5);
    expect(entries[1]?.summary).toBe(true);
  });

  it("merges a later prune into the same record, and replaceSummary replaces it", () => {
    const { conversation } = prunedConversation();
    conversation.append(userMessage("Then update the docs"));
    const second = conversation.append(assistantMessage("w".repeat(2000)));
    expect(second.pruned).toBeDefined();
    const merged = conversation.summary() ?? "";
    expect(merged).toContain("(turns 1–2)");
    expect(merged).toContain('- "Now add tests"');
    expect(conversation.entries().filter((entry) => entry.summary)).toHaveLength(1);
    expect(conversation.forModel().filter((message) => message.content === merged)).toHaveLength(1);

    const complete =
      'The user asked to refactor the parser, then to "Now add tests"; src/a.ts was copied to src/b.ts.';
    const replaced = conversation.replaceSummary(complete);
    expect(replaced.addedFacts).toBeUndefined();
    expect(conversation.summary()).toBe(complete);
    expect(conversation.forModel()[1]?.content).toBe(conversation.summary());
    expect(conversation.status().tokens).toBe(recount(conversation.forModel()));

    conversation.append(userMessage("And release it"));
    conversation.append(assistantMessage("v".repeat(2000)));
    const after = conversation.summary() ?? "";
    expect(after.startsWith("The user asked to refactor the parser")).toBe(true);
    expect(after).toContain("[Since that summary]");
    expect(conversation.entries().filter((entry) => entry.summary)).toHaveLength(1);
    expect(conversation.entries().filter((entry) => entry.pruned).length).toBeGreaterThan(5);
  });

  it("cannot be replaced before anything was pruned", () => {
    const conversation = createConversation({ maxTokens: 1_000 });
    expect(() => conversation.replaceSummary("x")).toThrow(/Nothing has been pruned/);
  });
});

describe("a single long turn (an autonomous run)", () => {
  it("trims old tool exchanges inside the turn, keeping the instruction and the latest exchange", () => {
    const conversation = createConversation({ maxTokens: 4_000 });
    const instruction = userMessage("Fix every failing test");
    conversation.append(instruction);
    const answered = new Set<string>();
    let trimmed = false;
    for (let step = 0; step < 200; step += 1) {
      const [call, result] = exchange(`s${step}`, `src/file-${step}.ts`, "r".repeat(800));
      if (!call || !result) throw new Error("exchange");
      conversation.append(call);
      answered.add(`s${step}`);
      trimmed = conversation.append(result).pruned?.trimmedRetainedTurns === true || trimmed;
      const sent = conversation.forModel();
      expect(conversation.status().tokens).toBeLessThanOrEqual(3_200);
      expect(sent).toContain(instruction);
      expect(sent).toContain(call);
      expect(sent).toContain(result);
      expect(toolPairingProblems(sent, answered)).toEqual([]);
    }
    expect(trimmed).toBe(true);
  });
});

describe("a tool result whose call was already pruned", () => {
  it("is hidden at once", () => {
    const conversation = createConversation({ maxTokens: 1_000, minRetainTurns: 1 });
    conversation.append(userMessage("start"));
    conversation.append(
      assistantMessage("", [
        { id: "a", name: "read_file", input: { path: "a" } },
        { id: "b", name: "read_file", input: { path: "b" } },
      ]),
    );
    conversation.append(
      toolMessage({ toolCallId: "a", toolName: "read_file", content: "a", isError: false }),
    );
    conversation.append(userMessage("next"));
    expect(conversation.append(assistantMessage("q".repeat(3500))).pruned).toBeDefined();
    const late = toolMessage({
      toolCallId: "b",
      toolName: "read_file",
      content: "b",
      isError: false,
    });
    expect(conversation.append(late).hidden).toBe(true);
    expect(conversation.forModel()).not.toContain(late);
    expect(toolPairingProblems(conversation.forModel(), new Set(["a", "b"]))).toEqual([]);
    expect(conversation.summary()).toContain("2 tool results");
  });
});

describe("pruneThreshold: false", () => {
  it("never prunes by itself", () => {
    const conversation = createConversation({ maxTokens: 2_000, pruneThreshold: false });
    for (let turn = 0; turn < 50; turn += 1) {
      const update = conversation.append(userMessage("m".repeat(200)));
      expect(update.pruned).toBeUndefined();
    }
    expect(conversation.status().prunedMessages).toBe(0);
    expect(conversation.status().ratio).toBeGreaterThan(1);
    expect(conversation.prune().pruned).toBeDefined();
    expect(conversation.status().ratio).toBeLessThanOrEqual(0.6);
  });
});
