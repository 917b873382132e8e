import { constants } from "node:fs";
import { defineTool, toolFailure, toolSuccess, type Tool } from "@xzatoma/core";
import { PathOutsideWorkspaceError } from "@xzatoma/safety";
import { READ_FILE_DESCRIPTION } from "./descriptions/read-file.js";
import { assessRead, describeFsError, guardPath, recordRead } from "./tool-paths.js";
import { createContentScreen, type ContentScreen } from "./secret-content.js";
import { openResolved } from "./anchored-path.js";
import type { WorkspaceContext } from "./workspace-context.js";
import { builtinInput } from "./builtin-input.js";

/** 10 MiB: the largest file `read_file` reads without a line range (`tools.max_file_read_size`). */
export const DEFAULT_MAX_FILE_READ_BYTES = 10 * 1024 * 1024;
/** Files longer than this come back as an outline when no range is asked for. */
export const OUTLINE_THRESHOLD_LINES = 500;
const OUTLINE_EDGE_LINES = 50;
const BINARY_SNIFF_BYTES = 8192;

/** Options of {@link createReadFileTool}. */
export interface ReadFileToolOptions {
  /** Files larger than this are refused. Default 10 MiB. */
  readonly maxFileBytes?: number;
}

function numbered(lines: readonly string[], firstNumber: number): string {
  return lines.map((line, index) => `${firstNumber + index} ${line}`).join("\n");
}

/** The `read_file` tool: reads a text file inside the workspace, whole, by line range, or as an outline. */
export function createReadFileTool(
  workspace: WorkspaceContext,
  options: ReadFileToolOptions = {},
): Tool {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_READ_BYTES;
  return defineTool({
    name: "read_file",
    description: READ_FILE_DESCRIPTION,
    ...builtinInput("read_file"),
    access: "read",
    async assess(input) {
      return assessRead(workspace, [input.path], "read_file");
    },
    async execute(input) {
      const resolved = await guardPath(workspace, input.path);
      if (!resolved.ok) return resolved.failure;
      await recordRead(workspace, resolved.path);
      if (workspace.files) {
        // The editor's buffer, saved or not: newer than the disk.
        let text: string;
        try {
          text = await workspace.files.readTextFile(resolved.path);
        } catch (error) {
          return toolFailure(
            `'${input.path}' could not be read through the editor: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        const bytes = Buffer.byteLength(text, "utf8");
        if (bytes > maxFileBytes) {
          return toolFailure(
            `'${input.path}' has ${bytes} bytes, more than the limit of ${maxFileBytes}. Read a line range instead.`,
          );
        }
        return present(text, bytes, input, createContentScreen(workspace.exposure, input.path));
      }
      let handle;
      try {
        // The descriptor must be the file the guard resolved (a directory on the way swapped
        // for a link since is refused); O_NONBLOCK: a FIFO does not hang the read, and is
        // refused below as not a regular file.
        handle = await openResolved(
          workspace,
          resolved.path,
          constants.O_RDONLY | constants.O_NONBLOCK,
        );
      } catch (error) {
        return toolFailure(
          error instanceof PathOutsideWorkspaceError
            ? `'${input.path}' changed while it was being opened and now points outside the workspace; it was not read.`
            : describeFsError(error, input.path),
        );
      }
      try {
        const stats = await handle.stat();
        if (stats.isDirectory())
          return toolFailure(
            `'${input.path}' is a directory. Use list_directory to see what it holds.`,
          );
        if (!stats.isFile()) return toolFailure(`'${input.path}' is not a regular file.`);
        if (stats.size > maxFileBytes) {
          return toolFailure(
            `'${input.path}' has ${stats.size} bytes, more than the limit of ${maxFileBytes}. Read a line range instead.`,
          );
        }
        const buffer = await handle.readFile();
        if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
          return toolFailure(`'${input.path}' is a binary file; read_file reads text only.`);
        }
        return present(
          buffer.toString("utf8"),
          stats.size,
          input,
          createContentScreen(workspace.exposure, input.path),
        );
      } finally {
        await handle.close();
      }
    },
  });
}

/**
 * The result of read_file for a file's text: whole, a line range, or an outline. Only the
 * lines shown go through `content`, which hides their secrets.
 */
function present(
  text: string,
  bytes: number,
  input: { readonly path: string; readonly start_line?: number; readonly end_line?: number },
  content: ContentScreen,
) {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  const totalLines = lines.length;
  const metadata = { bytes, totalLines };

  if (input.start_line !== undefined || input.end_line !== undefined) {
    const start = input.start_line ?? 1;
    const end = Math.min(input.end_line ?? totalLines, totalLines);
    if (start > totalLines) {
      return toolFailure(
        `start_line ${start} is past the end of '${input.path}', which has ${totalLines} lines.`,
      );
    }
    if (start > end)
      return toolFailure(`start_line (${start}) must not be greater than end_line (${end}).`);
    return content.finish(
      toolSuccess(content.screen(lines.slice(start - 1, end).join("\n")), {
        ...metadata,
        startLine: start,
        endLine: end,
      }),
    );
  }
  if (totalLines > OUTLINE_THRESHOLD_LINES) {
    const shown = (from: number, to?: number) =>
      content.screen(lines.slice(from, to).join("\n")).split("\n");
    const head = numbered(shown(0, OUTLINE_EDGE_LINES), 1);
    const tailStart = totalLines - OUTLINE_EDGE_LINES + 1;
    const tail = numbered(shown(tailStart - 1), tailStart);
    return content.finish(
      toolSuccess(
        `Outline of ${input.path}: ${totalLines} lines; showing the first and last ${OUTLINE_EDGE_LINES}. ` +
          `Call read_file with start_line and end_line for the rest.\n\n${head}\n\n... (lines ${OUTLINE_EDGE_LINES + 1}-${tailStart - 1} omitted) ...\n\n${tail}`,
        { ...metadata, outline: true },
      ),
    );
  }
  return content.finish(toolSuccess(content.screen(text), metadata));
}
