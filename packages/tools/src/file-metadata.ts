import { constants, type Stats } from "node:fs";
import { readdir, readlink } from "node:fs/promises";
import { defineTool, isXzatomaError, toolFailure, toolSuccess, type Tool } from "@xzatoma/core";
import { FILE_METADATA_DESCRIPTION } from "./descriptions/file-metadata.js";
import { describeKind, refusal, resolveTarget } from "./file-targets.js";
import { describeFsError } from "./tool-paths.js";
import type { WorkspaceContext } from "./workspace-context.js";
import { DEFAULT_MAX_FILE_WRITE_BYTES } from "./write-file.js";
import { builtinInput } from "./builtin-input.js";

/** Options of {@link createFileMetadataTool}. */
export interface FileMetadataToolOptions {
  /** Lines are counted only in files up to this size. Default 10 MiB. */
  readonly maxFileBytes?: number;
}

const COUNT_BUFFER_BYTES = 256 * 1024;
const BINARY_SNIFF_BYTES = 8192;

/** `0644 (rw-r--r--)`. */
export function formatMode(mode: number): string {
  const bits = mode & 0o777;
  const symbolic = [6, 3, 0]
    .map((shift) => {
      const part = (bits >> shift) & 7;
      return `${part & 4 ? "r" : "-"}${part & 2 ? "w" : "-"}${part & 1 ? "x" : "-"}`;
    })
    .join("");
  return `${(mode & 0o7777).toString(8).padStart(4, "0")} (${symbolic})`;
}

/** Counts the lines of a text file by streaming it; undefined for a binary file. */
async function countLines(
  workspace: WorkspaceContext,
  absolute: string,
): Promise<number | undefined> {
  const { handle } = await workspace.pathGuard.open(
    absolute,
    constants.O_RDONLY | constants.O_NONBLOCK,
  );
  try {
    const buffer = Buffer.allocUnsafe(COUNT_BUFFER_BYTES);
    let lines = 0;
    let last = 10;
    let first = true;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return last === 10 ? lines : lines + 1;
      const chunk = buffer.subarray(0, bytesRead);
      if (first && chunk.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return undefined;
      first = false;
      for (let index = chunk.indexOf(10); index >= 0; index = chunk.indexOf(10, index + 1)) lines++;
      last = chunk[bytesRead - 1] ?? 10;
    }
  } finally {
    await handle.close();
  }
}

/** The `file_metadata` tool: type, size, mode, mtime, links and line count of one path. */
export function createFileMetadataTool(
  workspace: WorkspaceContext,
  options: FileMetadataToolOptions = {},
): Tool {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_WRITE_BYTES;
  return defineTool({
    name: "file_metadata",
    description: FILE_METADATA_DESCRIPTION,
    ...builtinInput("file_metadata"),
    access: "read",
    async execute(input) {
      const target = await resolveTarget(workspace, input.path, "read");
      if (!target.ok) return refusal(target.message);
      const stats: Stats | undefined = target.stats;
      if (stats === undefined) return toolFailure(describeFsError({ code: "ENOENT" }, input.path));
      const where = workspace.pathGuard.relative(target.entry);
      const lines = [`path: ${where}`];
      if (target.entryStats?.isSymbolicLink()) {
        lines.push(
          `symlink: ${await readlink(target.entry)} (resolves to ${workspace.pathGuard.relative(target.real)})`,
        );
      }
      const kind = describeKind(stats);
      lines.push(
        `type: ${kind}`,
        `size: ${stats.size} bytes`,
        `mode: ${formatMode(stats.mode)}`,
        `modified: ${stats.mtime.toISOString()}`,
        `links: ${stats.nlink}`,
      );
      const metadata: Record<string, string | number | boolean> = {
        path: where,
        type: kind,
        size: stats.size,
        mode: stats.mode & 0o7777,
        modified: stats.mtime.toISOString(),
        links: stats.nlink,
      };
      try {
        if (stats.isFile()) {
          const count =
            stats.size > maxBytes ? undefined : await countLines(workspace, target.real);
          if (count !== undefined) metadata["lines"] = count;
          lines.push(
            `lines: ${count ?? (stats.size > maxBytes ? `not counted (more than ${maxBytes} bytes)` : "not counted (binary file)")}`,
          );
        } else if (stats.isDirectory()) {
          const entries = (await readdir(target.real)).length;
          metadata["entries"] = entries;
          lines.push(`entries: ${entries}`);
        }
      } catch (error) {
        return toolFailure(
          isXzatomaError(error) ? error.message : describeFsError(error, input.path),
        );
      }
      return toolSuccess(lines.join("\n"), metadata);
    },
  });
}
