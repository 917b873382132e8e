export {
  createListDirectoryTool,
  DEFAULT_MAX_LIST_ENTRIES,
  type ListDirectoryToolOptions,
} from "./list-directory.js";
export { matchesWildcard } from "./wildcard.js";
export {
  createReadFileTool,
  DEFAULT_MAX_FILE_READ_BYTES,
  OUTLINE_THRESHOLD_LINES,
  type ReadFileToolOptions,
} from "./read-file.js";
export {
  createWorkspaceContext,
  withWorkspaceLock,
  type ChangeRecorder,
  type FileAccess,
  type WorkspaceContext,
  type WorkspaceContextOptions,
} from "./workspace-context.js";
export { createWorkspaceLock, type WorkspaceLock } from "./workspace-lock.js";
export { createBuiltinTools, type BuiltinToolsOptions } from "./builtin-tools.js";
export * from "./fetch/index.js";
export { createPlanTool } from "./plan-tool.js";
export {
  createTerminalTool,
  sanitizedEnvironment,
  type CommandJudge,
  type TerminalToolOptions,
} from "./terminal.js";
export { createFileTools, type FileToolsOptions } from "./file-tools.js";
export { createGrepTool, type GrepToolOptions } from "./grep.js";
export { createContentScreen, secretsNote, type ContentScreen } from "./secret-content.js";
export { createFindPathTool, type FindPathToolOptions } from "./find-path.js";
export { createPlanProgressTool, MARK_INSTRUCTION_DONE_DESCRIPTION } from "./plan-progress-tool.js";
// The sections' zod schemas are in `@xzatoma/tools/config`.
export type { FetchConfig, TerminalConfig, ToolsConfig } from "./tools-config.js";
export {
  createStandardTools,
  type StandardTools,
  type StandardToolsConfig,
  type StandardToolsDependencies,
} from "./standard-tools.js";
