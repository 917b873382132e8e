import {
  defineTool,
  toolFailure,
  toolSuccess,
  type Tool,
  type ToolAssessment,
} from "@xzatoma/core";
import { WRITE_FILE_DESCRIPTION } from "./descriptions/write-file.js";
import {
  blocked,
  byteLength,
  plural,
  refusal,
  requirePersonFor,
  resolveTarget,
} from "./file-targets.js";
import { writeFileSafely } from "./safe-write.js";
import type { WorkspaceContext } from "./workspace-context.js";
import { builtinInput } from "./builtin-input.js";

/** 10 MiB: the largest content written or edited in one call. */
export const DEFAULT_MAX_FILE_WRITE_BYTES = 10 * 1024 * 1024;

/** Options of {@link createWriteFileTool}. */
export interface WriteFileToolOptions {
  /** Content larger than this is refused. Default 10 MiB. */
  readonly maxFileBytes?: number;
}

/** The refusal for content over the limit, or undefined. */
export function contentTooLarge(bytes: number, maxBytes: number): string | undefined {
  return bytes > maxBytes
    ? `The content has ${bytes} bytes, more than the limit of ${maxBytes}. Write a smaller file.`
    : undefined;
}

/** What judging a write established for its execution. */
interface WriteFacts {
  /** No file was there: the write must not overwrite one that appeared since. */
  readonly creates?: true;
}

/**
 * The `write_file` tool: writes a whole file, new or existing, unasked when the change is
 * ordinary; a hidden, protected, configuration-resolved or executable path needs a person
 * (`judgeFileChange`). A write never sets an execute bit.
 */
export function createWriteFileTool(
  workspace: WorkspaceContext,
  options: WriteFileToolOptions = {},
): Tool {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_WRITE_BYTES;
  return defineTool({
    name: "write_file",
    description: WRITE_FILE_DESCRIPTION,
    ...builtinInput("write_file"),
    access: "write",
    async assess(input): Promise<ToolAssessment<WriteFacts>> {
      const bytes = byteLength(input.content);
      const tooLarge = contentTooLarge(bytes, maxBytes);
      if (tooLarge) return blocked(tooLarge);
      const target = await resolveTarget(workspace, input.path, "write");
      if (!target.ok) return blocked(target.message);
      const where = workspace.pathGuard.relative(target.real);
      const stats = target.stats;
      if (stats === undefined) {
        return requirePersonFor(
          {
            verdict: "allow",
            reason: `creates ${where}`,
            summary: `create ${where} (${plural(bytes, "byte")})`,
            // Judged as creating a file: it must not overwrite one that appeared since.
            facts: { creates: true as const },
          },
          where,
          target.concern,
        );
      }
      if (stats.isDirectory())
        return blocked(`'${input.path}' is a directory; write_file writes files.`);
      if (!stats.isFile()) return blocked(`'${input.path}' is not a regular file.`);
      return requirePersonFor(
        {
          verdict: "allow",
          reason: `overwrites the existing file ${where}`,
          summary: `overwrite ${where} (${plural(stats.size, "byte")} -> ${plural(bytes, "byte")})`,
        },
        where,
        target.concern,
      );
    },
    async execute(input, context) {
      const tooLarge = contentTooLarge(byteLength(input.content), maxBytes);
      if (tooLarge) return toolFailure(tooLarge);
      const target = await resolveTarget(workspace, input.path, "write");
      if (!target.ok) return refusal(target.message);
      const where = workspace.pathGuard.relative(target.real);
      const before = target.stats;
      if (before?.isDirectory()) {
        return toolFailure(`'${input.path}' is a directory; write_file writes files.`);
      }
      const exclusive = context.assessment?.facts?.creates === true;
      const outcome = await writeFileSafely(workspace, input.path, input.content, { exclusive });
      if (!outcome.ok) {
        if (exclusive && outcome.code === "EEXIST") {
          return toolFailure(
            `'${input.path}' appeared after this call was checked, so it was not overwritten. Call write_file again if you mean to replace it.`,
          );
        }
        return outcome.code === "REFUSED" ? refusal(outcome.message) : toolFailure(outcome.message);
      }
      const created = before === undefined;
      return toolSuccess(
        created
          ? `Created ${where} (${outcome.bytes} bytes).`
          : `Overwrote ${where} (${before.size} -> ${outcome.bytes} bytes).`,
        { path: where, bytes: outcome.bytes, created },
      );
    },
  });
}
