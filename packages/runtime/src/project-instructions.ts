import { constants } from "node:fs";
import { createPathGuard } from "@xzatoma/safety";

/** The most of `AGENTS.md` that goes into the system prompt: 64 KiB. */
export const DEFAULT_PROJECT_INSTRUCTIONS_MAX_BYTES = 64 * 1024;

/** The project's instructions for the agent, from `AGENTS.md` at the workspace root. */
export interface ProjectInstructions {
  /** The real path of the file read. */
  readonly path: string;
  /** The text for the system prompt; when cut, it ends with a note saying so. */
  readonly text: string;
  /** Whether the file was longer than the cap. */
  readonly truncated: boolean;
  /** The file's full size in bytes. */
  readonly bytes: number;
}

/** Options of {@link loadProjectInstructions}. */
export interface ProjectInstructionsOptions {
  /** Default {@link DEFAULT_PROJECT_INSTRUCTIONS_MAX_BYTES}. */
  readonly maxBytes?: number;
  /** The file name at the root. Default `AGENTS.md`. */
  readonly fileName?: string;
}

function errorCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/**
 * Reads `AGENTS.md` at `workspaceRoot` for the system prompt, through the workspace path
 * guard (a symlink leading out of the workspace is refused with the guard's error).
 * Resolves `undefined` when there is no such file. A file over the cap is cut at the last
 * whole line within it, and a note says how much was left out.
 *
 * @example
 * const instructions = await loadProjectInstructions(workspace);
 * if (instructions) systemPrompt += `\n\nProject instructions:\n${instructions.text}`;
 */
export async function loadProjectInstructions(
  workspaceRoot: string,
  options: ProjectInstructionsOptions = {},
): Promise<ProjectInstructions | undefined> {
  const maxBytes = options.maxBytes ?? DEFAULT_PROJECT_INSTRUCTIONS_MAX_BYTES;
  const fileName = options.fileName ?? "AGENTS.md";
  const guard = createPathGuard({ root: workspaceRoot });
  let opened;
  try {
    opened = await guard.open(fileName, constants.O_RDONLY);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
  try {
    const stats = await opened.handle.stat();
    if (!stats.isFile()) return undefined;
    const length = Math.min(stats.size, maxBytes);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await opened.handle.read(buffer, 0, length, 0);
    let text = buffer.subarray(0, bytesRead).toString("utf8");
    const truncated = stats.size > maxBytes;
    if (truncated) {
      const lastNewline = text.lastIndexOf("\n");
      // Cut at a line end, or at least not inside a multi-byte character.
      text = lastNewline > 0 ? text.slice(0, lastNewline) : text.replace(/\uFFFD+$/, "");
      text += `\n\n[${fileName} was cut: it has ${stats.size} bytes and only the first ${maxBytes} are included.]`;
    }
    return { path: opened.path, text, truncated, bytes: stats.size };
  } finally {
    await opened.handle.close();
  }
}
