import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedModel } from "@xzatoma/scripted-servers/replies-model";
import { Agent } from "./agent.js";
import { defineTool } from "./tool.js";
import { toolSuccess } from "./tool-result.js";

const write = defineTool({
  name: "write_file",
  description: "Writes a file.",
  inputSchema: z.object({ path: z.string(), content: z.string() }).strict(),
  access: "read",
  execute: async ({ path }) => toolSuccess(`wrote ${path}`),
});

describe("Agent.compactContext (/compact)", () => {
  it("prunes all before the last turn, asks for a summary with the focus, and adds the facts it left out", async () => {
    const model = scriptedModel((index, call) => {
      const system = call.prompt[0];
      const text = system?.role === "system" ? system.content : "";
      if (text.startsWith("Summarise")) return { text: "We worked on the parser." };
      return index % 2 === 0
        ? { toolCalls: [{ name: "write_file", input: { path: `src/f${index}.ts`, content: "x" } }] }
        : { text: "written" };
    });
    const agent = new Agent({
      model,
      tools: [write],
      systemPrompt: "INSTRUCTIONS-MARKER",
      limits: { maxTurns: 10 },
      context: { maxTokens: 100_000 },
    });
    await agent.run("GOAL: split the parser");
    await agent.run("keep the public API unchanged");
    await agent.run("now the tests");
    const compacted = await agent.compactContext({ focus: "the public API" });
    expect(compacted.pruned).toBeGreaterThan(0);

    const request = model.doStreamCalls.at(-1);
    const system = request?.prompt[0];
    expect(system?.role === "system" ? system.content : "").toContain(
      "Keep most detail about: the public API",
    );
    const summary = compacted.summary ?? "";
    expect(summary).toContain("We worked on the parser.");
    expect(summary).toContain("Files changed: src/f0.ts, src/f2.ts");
    expect(summary).toContain('"keep the public API unchanged"');

    const sent = agent.conversation.forModel().map((message) => message.content);
    expect(sent[0]).toBe("INSTRUCTIONS-MARKER");
    expect(sent).toContain("GOAL: split the parser");
    expect(sent).toContain("now the tests");
    expect(sent).not.toContain("keep the public API unchanged");
    // The history still holds every message.
    expect(agent.messages.map((message) => message.content)).toContain(
      "keep the public API unchanged",
    );
  });

  it("says there was nothing to compact in a conversation of one turn", async () => {
    const agent = new Agent({ model: scriptedModel(() => ({ text: "hi" })) });
    await agent.run("hello");
    expect(await agent.compactContext()).toEqual({ pruned: 0, summary: undefined });
  });
});

describe("Agent.pinnedMessages", () => {
  it("carries a pinned input into an agent rebuilt from the messages", async () => {
    const model = scriptedModel(() => ({ text: "ok" }));
    const agent = new Agent({ model });
    await agent.run("SKILL BODY\n\nuse it", { pinInput: true });
    await agent.run("plain");
    const pinned = agent.pinnedMessages;
    expect([...pinned].map((message) => message.content)).toEqual(["SKILL BODY\n\nuse it"]);
    const rebuilt = new Agent({ model, history: agent.messages, pinnedHistory: pinned });
    expect(rebuilt.conversation.entries().filter((entry) => entry.pinned)).toHaveLength(1);
    expect(rebuilt.pinnedMessages).toEqual(pinned);
  });
});
