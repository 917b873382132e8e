import type { AgentEvent, AgentResult } from "@xzatoma/core";
import { toTerminalSafeLine } from "./terminal-safe.js";

/** The file tools whose successful calls change the workspace, and the metadata key of the path. */
const WRITING_TOOLS: Readonly<Record<string, string>> = {
  write_file: "path",
  edit_file: "path",
  delete_path: "path",
  create_directory: "path",
  copy_path: "destination",
  move_path: "destination",
};

/** Collects what a run changed and writes its closing summary. */
export interface RunSummary {
  /** Give it every event of the run. */
  onEvent(event: AgentEvent): void;
  /** The summary lines: how it ended, turns, tokens, time, the conversation, files changed. */
  lines(result: AgentResult, conversationId: string | undefined): string[];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The closing summary of `xzatoma run`, for standard error:
 *
 * ```text
 * completed: 3 turns, 2 tool calls, 1534 tokens (1500 in, 34 out), 4.2 s
 * conversation 01JX... (xzatoma history show 01JX...)
 * files changed: notes.md
 * ```
 *
 * "Files changed" lists what the file tools wrote, created, moved or deleted; a command
 * run in the terminal may have changed more, which it cannot see.
 */
export function createRunSummary(): RunSummary {
  const changed = new Set<string>();
  return {
    onEvent(event) {
      if (event.type !== "tool-result" || !event.result.success) return;
      const key = WRITING_TOOLS[event.toolName];
      const where = key === undefined ? undefined : event.result.metadata[key];
      if (typeof where !== "string" || event.result.metadata["changed"] === false) return;
      changed.add(where);
    },
    lines(result, conversationId) {
      const { usage } = result;
      const lines = [
        `${result.stopReason}: ${result.turns} turn${result.turns === 1 ? "" : "s"}, ${result.toolCalls} tool call${result.toolCalls === 1 ? "" : "s"}, ${usage.totalTokens} tokens (${usage.inputTokens} in, ${usage.outputTokens} out), ${seconds(result.durationMs)}`,
      ];
      // A tree's subagents spent tokens too: the whole tree's, when they differ.
      const tree = result.treeUsage;
      if (tree && tree.totalTokens !== usage.totalTokens)
        lines.push(
          `with its subagents: ${tree.totalTokens} tokens (${tree.inputTokens} in, ${tree.outputTokens} out)`,
        );
      if (conversationId)
        lines.push(`conversation ${conversationId} (xzatoma history show ${conversationId})`);
      lines.push(
        changed.size === 0
          ? "files changed: none by the file tools"
          : `files changed: ${[...changed].map((file) => toTerminalSafeLine(file)).join(", ")}`,
      );
      return lines;
    },
  };
}
