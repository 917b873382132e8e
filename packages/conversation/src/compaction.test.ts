import { describe, expect, it } from "vitest";
import { createConversation, type Conversation } from "./conversation.js";
import {
  assistantMessage,
  systemMessage,
  toolMessage,
  userMessage,
  type Message,
} from "./message.js";
import { restoreConversation } from "./restore.js";
import { completeSummary, missingFacts, openStepsOf } from "./summary-facts.js";
import { toolPairingProblems } from "./test-support.js";

const KEPT = { mark_instruction_done: "latest", skill: "all" } as const;

function progress(done: number): string {
  const steps = ["Read the parser", "Write the tests", "Update the docs"];
  return [
    `Completed ${done}/3 instructions`,
    ...steps.map((step, index) => `${index < done ? "✓" : "○"} ${step}`),
  ].join("\n");
}

/** Appends one tool exchange and returns its messages. */
function exchange(
  conversation: Conversation,
  id: string,
  name: string,
  input: unknown,
  content: string,
): Message[] {
  const call = assistantMessage("", [{ id, name, input }]);
  const result = toolMessage({ toolCallId: id, toolName: name, content, isError: false });
  conversation.append(call);
  conversation.append(result);
  return [call, result];
}

describe("compaction keeps what matters verbatim", () => {
  it("keeps the instructions, the goal, the latest request, every skill and the latest progress through many prunes", () => {
    const conversation = createConversation({
      maxTokens: 3_000,
      minRetainTurns: 1,
      keptTools: KEPT,
    });
    const system = systemMessage("You are XZatoma. MARKER-7731");
    const instructions = systemMessage("AGENTS.md: run the tests before finishing.");
    conversation.append(system, { pinned: true });
    conversation.append(instructions, { pinned: true });
    const goal = userMessage("GOAL: refactor the parser");
    conversation.append(goal);
    const [, skill] = exchange(conversation, "s1", "skill", { name: "testing" }, "SKILL BODY");
    const answered = new Set<string>(["s1"]);
    let latestProgress: Message | undefined;
    let firstProgress: Message | undefined;
    let request: Message = goal;
    for (let step = 1; step <= 60; step += 1) {
      exchange(
        conversation,
        `r${step}`,
        "read_file",
        { path: `src/${step}.ts` },
        "x".repeat(1_200),
      );
      answered.add(`r${step}`);
      if (step % 10 === 0) {
        const [, result] = exchange(
          conversation,
          `p${step}`,
          "mark_instruction_done",
          { number: Math.min(3, step / 10) },
          progress(Math.min(3, step / 10)),
        );
        answered.add(`p${step}`);
        firstProgress ??= result;
        latestProgress = result;
      }
      if (step % 20 === 0) {
        request = userMessage(`Request ${step}: keep going with the next file`);
        conversation.append(request);
      }
      const sent = conversation.forModel();
      expect(sent).toContain(system);
      expect(sent).toContain(instructions);
      expect(sent).toContain(goal);
      expect(sent).toContain(request);
      expect(sent).toContain(skill);
      if (latestProgress) expect(sent).toContain(latestProgress);
      expect(toolPairingProblems(sent, answered)).toEqual([]);
    }
    // The older progress results were released and pruned; the history still holds them.
    expect(conversation.forModel()).not.toContain(firstProgress);
    const entries = conversation.entries();
    expect(entries.find((entry) => entry.message === firstProgress)?.pruned).toBe(true);
    expect(conversation.status().prunedMessages).toBeGreaterThan(60);
  });

  it("prunes a superseded progress result inside one long autonomous turn", () => {
    const conversation = createConversation({ maxTokens: 3_000, keptTools: KEPT });
    conversation.append(systemMessage("MARKER"), { pinned: true });
    const goal = userMessage("GOAL: the whole plan");
    conversation.append(goal);
    const results: Message[] = [];
    for (let step = 1; step <= 50; step += 1) {
      exchange(conversation, `r${step}`, "read_file", { path: `f${step}` }, "x".repeat(1_200));
      if (step % 10 === 0 && step <= 40) {
        const done = Math.min(3, step / 10);
        const id = `p${step}`;
        results.push(
          exchange(conversation, id, "mark_instruction_done", { number: done }, progress(done))[1]!,
        );
      }
    }
    const sent = conversation.forModel();
    expect(sent).toContain(goal);
    expect(sent).toContain(results.at(-1));
    for (const older of results.slice(0, -1)) expect(sent).not.toContain(older);
  });

  it("compact() prunes everything before the last turn that may go, whatever the total", () => {
    const conversation = createConversation({ maxTokens: 100_000, keptTools: KEPT });
    const system = systemMessage("Instructions MARKER");
    conversation.append(system, { pinned: true });
    const goal = userMessage("the goal");
    conversation.append(goal);
    exchange(conversation, "w1", "write_file", { path: "src/a.ts", content: "a" }, "wrote");
    const [, plan] = exchange(
      conversation,
      "p1",
      "mark_instruction_done",
      { number: 1 },
      progress(1),
    );
    conversation.append(assistantMessage("done with step one"));
    conversation.append(userMessage("second request"));
    exchange(conversation, "w2", "edit_file", { path: "src/b.ts" }, "edited");
    conversation.append(assistantMessage("done"));
    const last = userMessage("the last request");
    conversation.append(last);
    expect(conversation.status().prunedMessages).toBe(0);

    const update = conversation.compact();
    expect(update.pruned?.dropped.length).toBe(7);
    const sent = conversation.forModel();
    expect(sent.map((message) => message.content)).toEqual([
      "Instructions MARKER",
      conversation.summary(),
      "the goal",
      "",
      progress(1),
      "the last request",
    ]);
    expect(sent).toContain(plan);
    expect(conversation.summary()).toContain("Files changed: src/a.ts, src/b.ts.");
    expect(conversation.summaryFacts()).toEqual({
      filesChanged: ["src/a.ts", "src/b.ts"],
      decisions: ["second request"],
      openSteps: ["Write the tests", "Update the docs"],
    });
    // The originals stay in the history, flagged.
    expect(conversation.entries().filter((entry) => entry.pruned)).toHaveLength(7);
    expect(() => conversation.compact({ keepTurns: 0 })).toThrow(/keepTurns/);
  });

  it("adds to a model's summary the files changed, decisions and open steps it left out", () => {
    const conversation = createConversation({ maxTokens: 100_000, keptTools: KEPT });
    conversation.append(systemMessage("Instructions"), { pinned: true });
    conversation.append(userMessage("the goal"));
    exchange(conversation, "w1", "write_file", { path: "src/parser.ts" }, "wrote");
    exchange(conversation, "p1", "mark_instruction_done", { number: 1 }, progress(1));
    conversation.append(userMessage("use tabs, not spaces, in every file"));
    conversation.append(assistantMessage("ok"));
    conversation.append(userMessage("now"));
    conversation.compact();

    const update = conversation.replaceSummary("We talked about the parser.");
    expect(update.addedFacts).toEqual({
      filesChanged: ["src/parser.ts"],
      decisions: ["use tabs, not spaces, in every file"],
      openSteps: ["Write the tests", "Update the docs"],
    });
    const summary = conversation.summary() ?? "";
    expect(summary).toContain("We talked about the parser.");
    expect(summary).toContain("Files changed: src/parser.ts.");
    expect(summary).toContain('- "use tabs, not spaces, in every file"');
    expect(summary).toContain("- Write the tests");

    // The facts survive a save and a restore.
    const restored = restoreConversation(JSON.stringify(conversation.toJSON()), {
      maxTokens: 100_000,
      keptTools: KEPT,
    });
    expect(restored.summary()).toBe(summary);
    expect(restored.forModel().map((message) => message.content)).toEqual(
      conversation.forModel().map((message) => message.content),
    );
  });

  it("adds nothing when the summary carries every fact", () => {
    const facts = {
      filesChanged: ["src/parser.ts"],
      decisions: ["use tabs, not spaces, in every file"],
      openSteps: ["Write the tests"],
    };
    const text =
      "Changed src/parser.ts. The person wants tabs instead of spaces in every file. Next: write the tests.";
    expect(missingFacts(text, facts)).toEqual({ filesChanged: [], decisions: [], openSteps: [] });
    expect(completeSummary(text, facts).text).toBe(text);
    // A path must be written out, not just its base name.
    expect(missingFacts("Changed parser.ts.", facts).filesChanged).toEqual(["src/parser.ts"]);
  });

  it("reads open steps from plan progress and Markdown task lists", () => {
    expect(openStepsOf(progress(1))).toEqual(["Write the tests", "Update the docs"]);
    expect(openStepsOf("- [x] done\n- [ ] left one\n* [ ] left two")).toEqual([
      "left one",
      "left two",
    ]);
  });

  it("rejects a keptTools entry that is neither all nor latest, naming it", () => {
    expect(() =>
      createConversation({ maxTokens: 100, keptTools: { skill: "some" as "all" } }),
    ).toThrow(/keptTools\.skill must be "all" or "latest"/);
  });
});
