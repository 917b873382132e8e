import type { Tool } from "@xzatoma/core";
import { createCopyPathTool } from "./copy-path.js";
import { createCreateDirectoryTool } from "./create-directory.js";
import { createDeletePathTool } from "./delete-path.js";
import { createDiffFilesTool } from "./diff-files.js";
import { createEditFileTool } from "./edit-file.js";
import { createFileMetadataTool } from "./file-metadata.js";
import { createFindPathTool, type FindPathToolOptions } from "./find-path.js";
import { createGrepTool, type GrepToolOptions } from "./grep.js";
import { createMovePathTool } from "./move-path.js";
import { recordToolChanges } from "./record-changes.js";
import { withWorkspaceLock, type WorkspaceContext } from "./workspace-context.js";
import { createWriteFileTool } from "./write-file.js";

/**
 * `tool` whose whole execution (an edit's read, its judgement of the file and its write)
 * holds the workspace's lock, so no other change (an apply, a parallel subagent's write)
 * lands in between, and what it will change is recorded first (see `ChangeRecorder`). The
 * other properties are the tool's own, lazy schemas included.
 */
function underWorkspaceLock(tool: Tool, workspace: WorkspaceContext): Tool {
  const locked = Object.create(
    Object.getPrototypeOf(tool) as object | null,
    Object.getOwnPropertyDescriptors(tool),
  ) as Tool;
  Object.defineProperty(locked, "execute", {
    enumerable: true,
    value: (input: unknown, context: Parameters<Tool["execute"]>[1]) =>
      withWorkspaceLock(workspace, () => {
        // What the call replaces is recorded first (checkpoints); if that fails, nothing changes.
        recordToolChanges(workspace, tool.name, input);
        return tool.execute(input, context);
      }),
  });
  return locked;
}

/** Options of {@link createFileTools}. */
export interface FileToolsOptions {
  /**
   * The largest file written, edited, diffed or line-counted, and the largest content
   * accepted. Default 10 MiB.
   */
  readonly maxFileBytes?: number;
  /** Copies, moves and deletes of trees with more entries are refused. Default 100,000. */
  readonly maxTreeItems?: number;
  readonly grep?: GrepToolOptions;
  readonly findPath?: FindPathToolOptions;
}

/**
 * The file tools for one workspace: write_file, edit_file, copy_path, move_path,
 * delete_path, create_directory, file_metadata, find_path, grep and diff_files.
 */
export function createFileTools(
  workspace: WorkspaceContext,
  options: FileToolsOptions = {},
): Tool[] {
  const files = options.maxFileBytes === undefined ? {} : { maxFileBytes: options.maxFileBytes };
  const trees = options.maxTreeItems === undefined ? {} : { maxItems: options.maxTreeItems };
  return [
    ...[
      createWriteFileTool(workspace, files),
      createEditFileTool(workspace, files),
      createCopyPathTool(workspace, trees),
      createMovePathTool(workspace, trees),
      createDeletePathTool(workspace, trees),
      createCreateDirectoryTool(workspace),
    ].map((tool) => underWorkspaceLock(tool as Tool, workspace)),
    createFileMetadataTool(workspace, files),
    createFindPathTool(workspace, options.findPath),
    createGrepTool(workspace, options.grep),
    createDiffFilesTool(workspace, files),
  ];
}
