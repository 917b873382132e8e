import type { AgentEvent } from "@xzatoma/core";
import { describe, expect, it, vi } from "vitest";
import { applyMemorySettingsOnFirstAnswer } from "./memory-settings.js";

/** A runtime's event source: what `runtime.subscribe` gives the listener. */
function eventSource() {
  const listeners = new Set<(event: AgentEvent) => void>();
  return {
    subscribe(listener: (event: AgentEvent) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    emit(event: AgentEvent) {
      for (const listener of [...listeners]) listener(event);
    },
    get listeners() {
      return listeners.size;
    },
  };
}

/** An event source with the settings waiting on it, and the spy they are applied with. */
function waiting() {
  const source = eventSource();
  const apply = vi.fn();
  applyMemorySettingsOnFirstAnswer(source, apply);
  return { source, apply };
}

const started: AgentEvent = { type: "run-started", input: "hello", tools: [] };
const turn: AgentEvent = { type: "turn-started", turn: 1 };
const delta: AgentEvent = { type: "text-delta", turn: 1, delta: "hi" };

describe("applyMemorySettingsOnFirstAnswer", () => {
  it("waits for the model's first answer, then applies the settings once and unsubscribes", () => {
    const { source, apply } = waiting();
    source.emit(started);
    source.emit(turn);
    expect(apply).not.toHaveBeenCalled();
    source.emit(delta);
    expect(apply).toHaveBeenCalledTimes(1);
    expect(source.listeners).toBe(0);
    source.emit(delta);
    expect(apply).toHaveBeenCalledTimes(1);
  });

  it.each<AgentEvent>([
    { type: "tool-call-requested", turn: 1, toolCallId: "c1", toolName: "read_file", input: {} },
    { type: "error", error: { code: "PROVIDER_ERROR", message: "down" } },
  ])("counts a $type as the first answer", (event) => {
    const { source, apply } = waiting();
    source.emit(event);
    expect(apply).toHaveBeenCalledTimes(1);
  });

  it("applies nothing for a runtime whose model never answered", () => {
    const { source, apply } = waiting();
    source.emit(started);
    source.emit(turn);
    expect(apply).not.toHaveBeenCalled();
    expect(source.listeners).toBe(1);
  });
});
