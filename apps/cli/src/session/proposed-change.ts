import { open } from "node:fs/promises";
import path from "node:path";
import type { ApprovalRequest } from "@xzatoma/core";
import type { ProposedChange } from "../render/approval-diff.js";

/** Files larger than this are not read for a diff; the question shows the summary instead. */
const MAX_DIFF_FILE_BYTES = 1024 * 1024;

/** How the file a call would change is read: through the workspace's path guard. */
export interface ChangeReader {
  /** The real path inside the workspace, or a throw when it is outside (see PathGuard). */
  resolve(input: string): Promise<string>;
  /** The workspace root (real path), to name the file relative to it. */
  readonly root: string;
}

/** An approval question with what the change would do to a file that exists. */
export type ApprovalRequestWithChange = ApprovalRequest & { readonly change?: ProposedChange };

/** The text of an existing regular file, or undefined (missing, too large, binary, unreadable). */
async function readText(real: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(real, "r");
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > MAX_DIFF_FILE_BYTES) return undefined;
    const bytes = await handle.readFile();
    if (bytes.includes(0)) return undefined;
    return bytes.toString("utf8");
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

const stringOf = (input: Record<string, unknown>, key: string) =>
  typeof input[key] === "string" ? input[key] : undefined;

/**
 * What an overwrite or edit of an existing file would change, read before it happens:
 * `write_file` over a file, and `edit_file`'s `overwrite`, `append` and `edit` (its one
 * exact occurrence of `old_text`; when that is not found once, the old text against the
 * new, without the file around it). Undefined for a new file, a file it cannot read as
 * text, or any other tool: the question then shows the call as before.
 */
export async function proposedChange(
  request: ApprovalRequest,
  reader: ChangeReader,
): Promise<ProposedChange | undefined> {
  if (request.toolName !== "write_file" && request.toolName !== "edit_file") return undefined;
  const input = request.input;
  if (input === null || typeof input !== "object") return undefined;
  const fields = input as Record<string, unknown>;
  const file = stringOf(fields, "path");
  const content = stringOf(fields, "content");
  if (file === undefined || content === undefined) return undefined;
  let real: string;
  try {
    real = await reader.resolve(file);
  } catch {
    return undefined;
  }
  const before = await readText(real);
  if (before === undefined) return undefined;
  const relative = path.relative(reader.root, real).split(path.sep).join("/");
  if (request.toolName === "write_file") return { path: relative, before, after: content };
  const mode = stringOf(fields, "mode");
  if (mode === "overwrite") return { path: relative, before, after: content };
  if (mode === "append") return { path: relative, before, after: before + content };
  if (mode !== "edit") return undefined;
  const oldText = stringOf(fields, "old_text") ?? "";
  const at = oldText === "" ? -1 : before.indexOf(oldText);
  if (at !== -1 && before.indexOf(oldText, at + oldText.length) === -1) {
    return {
      path: relative,
      before,
      after: before.slice(0, at) + content + before.slice(at + oldText.length),
    };
  }
  return { path: relative, before: oldText, after: content };
}
