import { toTerminalSafeLine } from "../render/terminal-safe.js";
import type { ChatState } from "./chat-engine.js";

/** What the status line shows besides the chat's state. */
export interface StatusUsage {
  /** Tokens in the context window now, and the window's size (from `/context`). */
  readonly contextTokens?: number;
  readonly contextMax?: number;
  /** Tokens used by the session's turns so far (input and output). */
  readonly totalTokens: number;
  /** What the session cost, when the provider says (none of XZatoma's providers do yet). */
  readonly costUsd?: number;
}

/** `12.3k`, `950`. */
function compact(count: number): string {
  if (count < 1000) return String(count);
  if (count < 10_000) return `${(count / 1000).toFixed(1)}k`;
  return `${Math.round(count / 1000)}k`;
}

/**
 * The status line under the chat's prompt:
 * `ollama: llama3.2:latest · planning · approvals untrusted · context 3% of 32k · 1.2k tokens`.
 * The model name can come from the provider's server, so it is escaped.
 */
export function formatStatusLine(state: ChatState, usage: StatusUsage): string {
  const parts = [
    `${toTerminalSafeLine(state.provider)}: ${toTerminalSafeLine(state.model)}`,
    state.mode,
    `approvals ${state.approvalPolicy}`,
  ];
  if (usage.contextTokens !== undefined && usage.contextMax !== undefined && usage.contextMax > 0) {
    const percent = Math.min(100, Math.round((usage.contextTokens / usage.contextMax) * 100));
    parts.push(`context ${percent}% of ${compact(usage.contextMax)}`);
  }
  parts.push(`${compact(usage.totalTokens)} tokens`);
  if (usage.costUsd !== undefined) parts.push(`$${usage.costUsd.toFixed(2)}`);
  return parts.join(" · ");
}

/** Reads `Context: 120 tokens used, 99880 left of 100000` (the chat engine's `/context` line). */
export function parseContextLine(text: string): { tokens: number; max: number } | undefined {
  const match = /(\d+) tokens used, \d+ left of (\d+)/.exec(text);
  if (!match) return undefined;
  return { tokens: Number(match[1]), max: Number(match[2]) };
}
