import { defineTool, toolFailure, toolSuccess, type Tool } from "@xzatoma/core";
import { makeDirectories } from "./anchored-path.js";
import { CREATE_DIRECTORY_DESCRIPTION } from "./descriptions/create-directory.js";
import { blocked, describeKind, refusal, requirePersonFor, resolveTarget } from "./file-targets.js";
import { describeWriteError } from "./safe-write.js";
import type { WorkspaceContext } from "./workspace-context.js";
import { builtinInput } from "./builtin-input.js";

/** The `create_directory` tool: `mkdir -p` inside the workspace. */
export function createCreateDirectoryTool(workspace: WorkspaceContext): Tool {
  return defineTool({
    name: "create_directory",
    description: CREATE_DIRECTORY_DESCRIPTION,
    ...builtinInput("create_directory"),
    access: "write",
    async assess(input) {
      const target = await resolveTarget(workspace, input.path, "write", "mkdir");
      if (!target.ok) return blocked(target.message);
      const where = workspace.pathGuard.relative(target.real);
      return requirePersonFor(
        { verdict: "allow", reason: `creates the directory ${where}` },
        where,
        target.concern,
      );
    },
    async execute(input) {
      const target = await resolveTarget(workspace, input.path, "write", "mkdir");
      if (!target.ok) return refusal(target.message);
      const where = workspace.pathGuard.relative(target.real);
      if (target.stats?.isDirectory()) {
        return toolSuccess(`Directory ${where} already exists.`, { path: where, created: false });
      }
      if (target.stats) {
        return toolFailure(
          `'${input.path}' exists and is a ${describeKind(target.stats)}, not a directory.`,
        );
      }
      try {
        await makeDirectories(workspace, target.real);
      } catch (error) {
        return toolFailure(describeWriteError(error, input.path));
      }
      return toolSuccess(`Created directory ${where}.`, { path: where, created: true });
    },
  });
}
