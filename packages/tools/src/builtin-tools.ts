import type { Tool } from "@xzatoma/core";
import { createDiffFilesTool } from "./diff-files.js";
import { createFileMetadataTool } from "./file-metadata.js";
import { createFindPathTool } from "./find-path.js";
import { createGrepTool } from "./grep.js";
import { createListDirectoryTool, type ListDirectoryToolOptions } from "./list-directory.js";
import { createPlanTool } from "./plan-tool.js";
import { createReadFileTool, type ReadFileToolOptions } from "./read-file.js";
import type { WorkspaceContext } from "./workspace-context.js";

/** Options of {@link createBuiltinTools}. */
export interface BuiltinToolsOptions {
  readonly readFile?: ReadFileToolOptions;
  readonly listDirectory?: ListDirectoryToolOptions;
}

/**
 * The read-only built-in tools for one workspace, ready to register: `read_file`,
 * `list_directory`, `find_path`, `grep`, `file_metadata`, `diff_files`, `plan`. They need
 * no approval. Writing tools come from `createFileTools`, `terminal` from
 * `createTerminalTool` and `fetch` from `createFetchTool`, each with its guard.
 */
export function createBuiltinTools(
  workspace: WorkspaceContext,
  options: BuiltinToolsOptions = {},
): Tool[] {
  return [
    createReadFileTool(workspace, options.readFile),
    createListDirectoryTool(workspace, options.listDirectory),
    createFindPathTool(workspace),
    createGrepTool(workspace),
    createFileMetadataTool(workspace),
    createDiffFilesTool(workspace),
    createPlanTool(workspace),
  ];
}
