import {
  defineTool,
  toolFailure,
  toolSuccess,
  type Tool,
  type ToolAssessment,
} from "@xzatoma/core";
import { EDIT_FILE_DESCRIPTION } from "./descriptions/edit-file.js";
import {
  blocked,
  byteLength,
  plural,
  refusal,
  requirePersonFor,
  resolveTarget,
  type Target,
} from "./file-targets.js";
import { readTextFile } from "./read-text.js";
import { createContentScreen } from "./secret-content.js";
import { assessRead } from "./tool-paths.js";
import { writeFileSafely } from "./safe-write.js";
import { appendText, lineCount, replaceUnique, shrinkCheck, type EditMode } from "./text-edit.js";
import { unifiedDiff } from "./unified-diff.js";
import type { WorkspaceContext } from "./workspace-context.js";
import { contentTooLarge, DEFAULT_MAX_FILE_WRITE_BYTES } from "./write-file.js";
import { builtinInput } from "./builtin-input.js";

/** Options of {@link createEditFileTool}. */
export interface EditFileToolOptions {
  /** Files and results larger than this are refused. Default 10 MiB. */
  readonly maxFileBytes?: number;
}

const VERB: Record<EditMode, string> = {
  edit: "edit",
  create: "create",
  overwrite: "overwrite",
  append: "append to",
};

/** How risky one edit is, before any protected-path concern. */
function judgeEdit(
  mode: EditMode,
  where: string,
  target: Extract<Target, { ok: true }>,
  bytes: number,
): ToolAssessment {
  switch (mode) {
    case "create":
      return { verdict: "allow", reason: `creates ${where}` };
    case "overwrite":
      return {
        verdict: "allow",
        reason: `replaces the whole content of ${where}`,
        summary: `overwrite ${where} (${plural(target.stats?.size ?? 0, "byte")} -> ${plural(bytes, "byte")})`,
      };
    default:
      return { verdict: "allow", reason: `${mode === "edit" ? "edits" : "appends to"} ${where}` };
  }
}

/** The `edit_file` tool: search/replace, create, overwrite or append, answered with a diff. */
export function createEditFileTool(
  workspace: WorkspaceContext,
  options: EditFileToolOptions = {},
): Tool {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_WRITE_BYTES;
  return defineTool({
    name: "edit_file",
    description: EDIT_FILE_DESCRIPTION,
    ...builtinInput("edit_file"),
    access: "write",
    async assess(input): Promise<ToolAssessment> {
      const tooLarge = contentTooLarge(byteLength(input.content), maxBytes);
      if (tooLarge) return blocked(tooLarge);
      const target = await resolveTarget(workspace, input.path, "write");
      if (!target.ok) return blocked(target.message);
      const where = workspace.pathGuard.relative(target.real);
      if (target.stats?.isDirectory())
        return blocked(`'${input.path}' is a directory; edit_file edits files.`);
      // Edits answer with a diff of the old content: a secret file's edit reads it.
      const reading = target.stats
        ? await assessRead(workspace, [input.path], "edit_file")
        : undefined;
      if (reading?.verdict === "confirm") {
        return requirePersonFor(
          { ...reading, summary: `${input.mode} ${where} (it looks like it holds secrets)` },
          where,
          target.concern,
        );
      }
      return requirePersonFor(
        judgeEdit(input.mode, where, target, byteLength(input.content)),
        where,
        target.concern,
      );
    },
    async execute(input) {
      const tooLarge = contentTooLarge(byteLength(input.content), maxBytes);
      if (tooLarge) return toolFailure(tooLarge);
      const target = await resolveTarget(workspace, input.path, "write");
      if (!target.ok) return refusal(target.message);
      const where = workspace.pathGuard.relative(target.real);
      const verb = VERB[input.mode];
      if (target.stats?.isDirectory())
        return toolFailure(`Can't ${verb} '${input.path}': it is a directory.`);
      let oldText = "";
      if (input.mode === "create") {
        if (target.stats) {
          return toolFailure(
            `Can't create '${input.path}': it already exists. Use mode 'edit' to change part of it or 'overwrite' to replace it.`,
          );
        }
      } else {
        if (!target.stats) {
          return toolFailure(
            `Can't ${verb} '${input.path}': it does not exist. Use mode 'create' to make a new file.`,
          );
        }
        const read = await readTextFile(workspace, input.path, maxBytes);
        if (!read.ok) return toolFailure(read.message);
        oldText = read.text;
      }
      let newText = input.content;
      if (input.mode === "edit") {
        const plan = replaceUnique(oldText, input.old_text, input.content, input.path);
        if (!plan.ok) return toolFailure(plan.message);
        newText = plan.text;
        const shrink = shrinkCheck(oldText, newText, input.path);
        if (shrink) return toolFailure(shrink);
      } else if (input.mode === "append") {
        newText = appendText(oldText, input.content);
      }
      if (input.mode !== "create" && newText === oldText) {
        return toolSuccess(`No changes made to ${where}: the content is identical.`, {
          path: where,
          changed: false,
        });
      }
      const bytes = byteLength(newText);
      if (bytes > maxBytes) {
        return toolFailure(
          `The result would have ${bytes} bytes, more than the limit of ${maxBytes}.`,
        );
      }
      const outcome = await writeFileSafely(workspace, input.path, newText, {
        exclusive: input.mode === "create",
      });
      if (!outcome.ok) {
        return outcome.code === "REFUSED" ? refusal(outcome.message) : toolFailure(outcome.message);
      }
      // The diff shows the file's lines to the model: their secrets are hidden.
      const content = createContentScreen(workspace.exposure, where);
      const diff = unifiedDiff(where, where, content.screen(oldText), content.screen(newText));
      const heading = {
        create: `Created ${where} (${plural(lineCount(newText), "line")})`,
        overwrite: `Overwrote ${where}`,
        append: `Appended to ${where}`,
        edit: `Edited ${where} (replaced 1 occurrence)`,
      }[input.mode];
      return content.finish(
        toolSuccess(`${heading}:\n\n${diff}`, {
          path: where,
          changed: true,
          bytes,
          lines: lineCount(newText),
        }),
      );
    },
  });
}
