import type { Tool } from "@xzatoma/core";
import { createListDirectoryTool, type ListDirectoryToolOptions } from "./list-directory.js";
import { createReadFileTool, type ReadFileToolOptions } from "./read-file.js";
import type { WorkspaceContext } from "./workspace-context.js";

/** Options of {@link createBuiltinTools}. */
export interface BuiltinToolsOptions {
  readonly readFile?: ReadFileToolOptions;
  readonly listDirectory?: ListDirectoryToolOptions;
}

/** Every built-in tool for one workspace, ready to register. */
export function createBuiltinTools(
  workspace: WorkspaceContext,
  options: BuiltinToolsOptions = {},
): Tool[] {
  return [
    createReadFileTool(workspace, options.readFile),
    createListDirectoryTool(workspace, options.listDirectory),
  ];
}
