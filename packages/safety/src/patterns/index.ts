export { DEFAULT_MATCH_BUDGET } from "./automaton.js";
export { MAX_BRACE_RANGE } from "./glob-syntax.js";
export { compilePathGlob, type PathGlob, type PathGlobOptions } from "./path-glob.js";
export { PatternBudgetError, PatternSyntaxError } from "./pattern-node.js";
export {
  compileShellPattern,
  type PatternSpan,
  type ShellPattern,
  type ShellPatternPart,
} from "./shell-pattern.js";
