/**
 * The one escaper of untrusted text on its way to the terminal lives in `@xzatoma/safety`
 * (`terminal-safe.ts`), where the watcher's commands import it too; the CLI's modules keep
 * importing it from here.
 */
export {
  createTerminalSafeStream,
  escapeCodePoint,
  needsEscaping,
  toTerminalSafe,
  toTerminalSafeJson,
  toTerminalSafeLine,
  toTerminalSafeLineCut,
  type TerminalSafeOptions,
  type TerminalSafeStream,
} from "@xzatoma/safety";
