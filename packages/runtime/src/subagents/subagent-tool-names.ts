/** The names of the delegation tools. */
export const SUBAGENT_TOOL_NAMES: readonly string[] = ["subagent", "parallel_subagent"];
