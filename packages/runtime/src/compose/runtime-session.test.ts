import type { Message } from "@xzatoma/conversation";
import type { Agent } from "@xzatoma/core";
import { describe, expect, it } from "vitest";
import { RuntimeSession, type AgentBuilder } from "./runtime-session.js";

describe("RuntimeSession", () => {
  it("refuses to give an agent before its first is built", () => {
    const session = new RuntimeSession("m", 8192);
    expect(() => session.agent).toThrow(/read before it was built/);
    expect(() => session.rebuild([])).toThrow();
  });

  it("rebuilds on the agent's own messages with the session as it is now", () => {
    const built: { model: string; window: number; messages: readonly Message[] }[] = [];
    // Only what the session reads of an agent: its messages.
    const build: AgentBuilder = (current, messages) => {
      built.push({ model: current.model, window: current.window, messages });
      return { messages } as unknown as Agent;
    };
    const session = new RuntimeSession("first", 8192);
    const hello: Message = { role: "user", content: "hello" };
    session.start(build, [hello]);
    session.model = "second";
    session.window = 32768;
    session.rebuild();
    session.rebuild([]);
    expect(built).toEqual([
      { model: "first", window: 8192, messages: [hello] },
      { model: "second", window: 32768, messages: [hello] },
      { model: "second", window: 32768, messages: [] },
    ]);
    expect(session.agent.messages).toEqual([]);
  });
});
