import { constants, type Stats } from "node:fs";
import { readdir, type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { PathGuard, SecretExposure } from "@xzatoma/safety";
import { createContentScreen, secretsNote } from "@xzatoma/tools";
import { contextBlock, languageOf } from "./context-block.js";
import { formatLineRange, type FileMention, type LineRange } from "./mention.js";
import { listWorkspaceFiles } from "./workspace-search.js";

/** Loaded content, or why it could not be loaded and what to do instead. */
export type MentionOutcome =
  | { readonly ok: true; readonly block: string; readonly detail: string; readonly cached: boolean }
  | { readonly ok: false; readonly reason: string; readonly suggestion: string };

/** File text kept for the session, valid while the file's identity, size and times hold. */
export interface CachedFile {
  readonly stamp: string;
  readonly text: string;
}

/** What {@link loadFileMention} needs. */
export interface FileMentionContext {
  readonly pathGuard: PathGuard;
  readonly maxFileBytes: number;
  readonly cache: Map<string, CachedFile>;
  /**
   * The person who typed the mention is there to stand behind it (chat, or `run` with
   * `--allow-dangerous`): then a secret-looking or hard-linked file loads. Otherwise such a
   * file is refused like any read that needs a yes.
   */
  readonly confirmed: boolean;
  /**
   * Records that a secret-looking file reached the model, or that the redactor found a
   * secret in the text (which is then hidden from the model).
   */
  readonly exposure?: SecretExposure;
}

const BINARY_SNIFF_BYTES = 8192;
const MAX_LISTED_ENTRIES = 200;

/** Reads at most `limit + 1` bytes, so a file that grew after `stat` cannot blow the cap. */
async function readBounded(handle: FileHandle, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.alloc(Math.min(64 * 1024, limit + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > limit) break;
  }
  return Buffer.concat(chunks);
}

function fail(reason: string, suggestion: string): MentionOutcome {
  return { ok: false, reason, suggestion };
}

function stampOf(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

function errorCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/** Files elsewhere in the workspace with the same name, as "did you mean" candidates. */
async function similarFiles(guard: PathGuard, wanted: string): Promise<string[]> {
  const name = path.posix.basename(wanted).toLowerCase();
  const { files } = await listWorkspaceFiles({ pathGuard: guard, maxFiles: 5000 });
  return files.filter((file) => path.posix.basename(file).toLowerCase() === name).slice(0, 3);
}

async function notFound(guard: PathGuard, wanted: string): Promise<MentionOutcome> {
  const similar = await similarFiles(guard, wanted);
  if (similar.length > 0) {
    return fail("file not found", `did you mean ${similar.map((file) => `@${file}`).join(", ")}?`);
  }
  const stem = path.posix.basename(wanted).replace(/\.[^.]*$/, "") || wanted;
  return fail("file not found", `check the path or use @search:"${stem}"`);
}

function describeRefusal(error: unknown): MentionOutcome | undefined {
  const code = errorCode(error);
  if (code === "PATH_OUTSIDE_WORKSPACE") {
    const refusal = (error as { refusal?: unknown }).refusal;
    const reason =
      refusal === "symlink-escape"
        ? "it leads outside the workspace through a symlink"
        : refusal === "system-path"
          ? "it is a system path"
          : refusal === "invalid-path"
            ? "the path is not valid"
            : "it is outside the workspace";
    return fail(reason, "mention files inside the workspace by their path relative to its root");
  }
  if (code === "EACCES" || code === "EPERM")
    return fail("permission denied", "check the file's permissions");
  if (code === "ELOOP")
    return fail("it changed into a symlink while being opened", "mention the file it points to");
  return undefined;
}

async function listDirectory(guard: PathGuard, real: string): Promise<MentionOutcome> {
  const entries = await readdir(real, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const shown = entries
    .slice(0, MAX_LISTED_ENTRIES)
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
  if (entries.length > MAX_LISTED_ENTRIES) {
    shown.push(`... and ${entries.length - MAX_LISTED_ENTRIES} more`);
  }
  const relative = guard.relative(real);
  return {
    ok: true,
    block: contextBlock(
      `Directory: ${relative}/ (${entries.length} entries)`,
      shown.join("\n") || "(empty)",
    ),
    detail: `${entries.length} entries`,
    cached: false,
  };
}

function applyRange(
  relative: string,
  text: string,
  lines: LineRange | undefined,
): MentionOutcome | { heading: string; body: string; detail: string } {
  const all = text.split(/\r?\n/);
  if (all.length > 1 && all[all.length - 1] === "") all.pop();
  const total = text === "" ? 0 : all.length;
  if (lines === undefined) {
    return { heading: `File: ${relative} (${total} lines)`, body: text, detail: `${total} lines` };
  }
  if (lines.start < 1 || (lines.end !== undefined && lines.end < lines.start)) {
    return fail(
      `the line range ${formatLineRange(lines)} is not valid`,
      "write ranges as #L10-20 (from line 10 to 20) or #L10- (from line 10 to the end)",
    );
  }
  if (lines.start > total) {
    return fail(
      `line ${lines.start} is past the end of the file, which has ${total} lines`,
      `use a range within 1-${total}`,
    );
  }
  const end = Math.min(lines.end ?? total, total);
  const span = end === lines.start ? `line ${end}` : `lines ${lines.start}-${end}`;
  return {
    heading: `File: ${relative} (${span} of ${total})`,
    body: all.slice(lines.start - 1, end).join("\n"),
    detail: span,
  };
}

/**
 * Loads a file mention through the workspace path guard: inside the workspace only,
 * at most `maxFileBytes`, text only, with its line range applied. A directory gives a
 * listing. The text is cached for the session and read again when the file changes.
 */
export async function loadFileMention(
  mention: FileMention,
  context: FileMentionContext,
): Promise<MentionOutcome> {
  const { pathGuard: guard } = context;
  let opened;
  try {
    opened = await guard.open(mention.path, constants.O_RDONLY);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return notFound(guard, mention.path);
    const refusal = describeRefusal(error);
    if (refusal !== undefined) return refusal;
    throw error;
  }
  let text: string;
  let cached = false;
  try {
    const stats = await opened.handle.stat();
    const concern = stats.isFile() ? await guard.readConcern(opened.path) : undefined;
    if (concern !== undefined) {
      if (!context.confirmed) {
        return fail(
          `${concern}, and reading it needs a person's yes, which nobody can give in restricted autonomous mode`,
          "mention it in chat, or rerun with --allow-dangerous if you mean to share it",
        );
      }
      context.exposure?.record(`@${guard.relative(opened.path)}`);
    }
    if (stats.isDirectory()) {
      return mention.lines === undefined
        ? await listDirectory(guard, opened.path)
        : fail("it is a directory", "mention a file inside it");
    }
    if (!stats.isFile()) return fail("it is not a regular file", "mention a regular text file");
    const tooLarge = (size: string) =>
      fail(
        `the file is too large (${size} bytes; the limit is ${context.maxFileBytes})`,
        `use @grep:"..." to find the part you need, or raise agent.mentions.max_file_size`,
      );
    if (stats.size > context.maxFileBytes) return tooLarge(String(stats.size));
    const stamp = stampOf(stats);
    const entry = context.cache.get(opened.path);
    if (entry !== undefined && entry.stamp === stamp) {
      text = entry.text;
      cached = true;
    } else {
      const buffer = await readBounded(opened.handle, context.maxFileBytes);
      if (buffer.length > context.maxFileBytes) return tooLarge(`over ${context.maxFileBytes}`);
      if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
        return fail("it is a binary file", "mention text files only");
      }
      text = buffer.toString("utf8").replace(/^\uFEFF/, "");
      context.cache.set(opened.path, { stamp, text });
    }
  } finally {
    await opened.handle.close();
  }
  const relative = guard.relative(opened.path);
  const ranged = applyRange(relative, text, mention.lines);
  if ("ok" in ranged) return ranged;
  // The values the redactor finds never reach the model, whoever typed the mention.
  const content = createContentScreen(context.exposure, `@${relative}`);
  const body = content.screen(ranged.body);
  const hidden = content.hidden;
  return {
    ok: true,
    block: `${contextBlock(ranged.heading, body, languageOf(relative))}${hidden > 0 ? secretsNote(hidden) : ""}`,
    detail:
      hidden > 0
        ? `${ranged.detail}, ${hidden} secret${hidden === 1 ? "" : "s"} hidden`
        : ranged.detail,
    cached,
  };
}
