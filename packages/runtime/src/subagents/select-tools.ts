import type { Tool } from "@xzatoma/core";
import { SUBAGENT_TOOL_NAMES } from "./subagent-tool-names.js";

/** The tools a child gets: the parent's, or the subset `allowed` names. */
export function selectTools(
  available: readonly Tool[],
  allowed: readonly string[] | undefined,
): { tools: readonly Tool[]; delegate: boolean } | { error: string } {
  if (allowed === undefined) return { tools: available, delegate: true };
  const names = new Set(available.map((tool) => tool.name));
  const unknown = allowed.filter((name) => !names.has(name) && !SUBAGENT_TOOL_NAMES.includes(name));
  if (unknown.length > 0) {
    return {
      error: `allowed_tools names tools you do not have: ${unknown.join(", ")}. A subagent can only get tools you have: ${[...names].join(", ")}.`,
    };
  }
  return {
    tools: available.filter((tool) => allowed.includes(tool.name)),
    delegate: allowed.some((name) => SUBAGENT_TOOL_NAMES.includes(name)),
  };
}
