import { defineTool, toolFailure, toolSuccess, type Tool } from "@xzatoma/core";
import { DIFF_FILES_DESCRIPTION } from "./descriptions/diff-files.js";
import { refusal, resolveTarget } from "./file-targets.js";
import { readTextFile } from "./read-text.js";
import { assessRead } from "./tool-paths.js";
import { createContentScreen } from "./secret-content.js";
import { unifiedDiff } from "./unified-diff.js";
import type { WorkspaceContext } from "./workspace-context.js";
import { DEFAULT_MAX_FILE_WRITE_BYTES } from "./write-file.js";
import { builtinInput } from "./builtin-input.js";

/** Options of {@link createDiffFilesTool}. */
export interface DiffFilesToolOptions {
  /** Files larger than this are refused. Default 10 MiB. */
  readonly maxFileBytes?: number;
}

/** The `diff_files` tool: a unified diff of two text files of the workspace. */
export function createDiffFilesTool(
  workspace: WorkspaceContext,
  options: DiffFilesToolOptions = {},
): Tool {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_WRITE_BYTES;
  return defineTool({
    name: "diff_files",
    description: DIFF_FILES_DESCRIPTION,
    ...builtinInput("diff_files"),
    access: "read",
    async assess(input) {
      return assessRead(workspace, [input.path_a, input.path_b], "diff_files");
    },
    async execute(input) {
      const names: string[] = [];
      const texts: string[] = [];
      for (const argument of [input.path_a, input.path_b]) {
        const target = await resolveTarget(workspace, argument, "read");
        if (!target.ok) return refusal(target.message);
        const read = await readTextFile(workspace, argument, maxBytes);
        if (!read.ok) return toolFailure(read.message);
        names.push(workspace.pathGuard.relative(target.real));
        texts.push(read.text);
      }
      const [nameA = "", nameB = ""] = names;
      // Both sides are screened before the diff, so its context hides secrets too.
      const content = createContentScreen(workspace.exposure, `${nameA} or ${nameB}`);
      const [textA = "", textB = ""] = texts.map((text) => content.screen(text));
      const diff = unifiedDiff(nameA, nameB, textA, textB);
      if (diff === "")
        return toolSuccess(`${nameA} and ${nameB} are identical.`, { identical: true });
      return content.finish(toolSuccess(diff, { identical: false }));
    },
  });
}
