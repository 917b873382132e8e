import type { AgentEvent } from "@xzatoma/core";
import type { ChildInfo } from "./subagents/subagent-tools.js";

/**
 * Receives a runtime's events. `subagent` is the child that produced the event; it is absent
 * for the runtime's own agent and always absent unless the listener subscribed with
 * `{ subagents: true }`.
 */
export type RuntimeListener = (event: AgentEvent, subagent?: ChildInfo) => void;

/** What a subscription receives besides the runtime's own agent's events. */
export interface SubscribeOptions {
  /** Also every subagent's events, each with the child it came from. Default false. */
  readonly subagents?: boolean;
}

/** Ends a subscription: the listener receives nothing after it returns. Calling it twice is harmless. */
export type Unsubscribe = () => void;

/** The runtime's listeners, in the order they subscribed. */
export interface RuntimeEvents {
  subscribe(listener: RuntimeListener, options?: SubscribeOptions): Unsubscribe;
  /** Hands the runtime's own agent's event to every listener, in subscription order. */
  emit(event: AgentEvent): void;
  /** Hands a subagent's event to the listeners that asked for subagents' events. */
  emitSubagent(event: AgentEvent, child: ChildInfo): void;
}

export function createRuntimeEvents(): RuntimeEvents {
  // A fresh entry per subscription, so one function subscribed twice is two subscriptions.
  const listeners = new Set<{ listener: RuntimeListener; subagents: boolean }>();
  return {
    subscribe(listener, options = {}) {
      const entry = { listener, subagents: options.subagents === true };
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    emit(event) {
      // A listener that subscribes during delivery starts with the next event.
      for (const entry of [...listeners]) if (listeners.has(entry)) entry.listener(event);
    },
    emitSubagent(event, child) {
      for (const entry of [...listeners]) {
        if (entry.subagents && listeners.has(entry)) entry.listener(event, child);
      }
    },
  };
}
