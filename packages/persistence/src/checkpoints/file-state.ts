import { createHash } from "node:crypto";
import {
  closeSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  readSync,
  type Stats,
} from "node:fs";

/**
 * What one workspace path held at a moment: nothing, a file (its bytes by SHA-256, its
 * mode), a directory (its mode), a symlink (its target text), or something else (a fifo,
 * a socket, a device) that a rewind does not restore.
 */
export type FileState =
  | { readonly kind: "absent" }
  | {
      readonly kind: "file";
      readonly mode: number;
      readonly size: number;
      /** SHA-256 of the bytes, hex. */
      readonly hash: string;
      /** The bytes are in the blob store; false for files over the size limit (hash only). */
      readonly stored: boolean;
    }
  | { readonly kind: "directory"; readonly mode: number }
  | { readonly kind: "symlink"; readonly target: string }
  | { readonly kind: "other" };

function lstatOrUndefined(absolute: string): Stats | undefined {
  try {
    return lstatSync(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/** SHA-256 of a file's bytes, read in chunks (a file over the size limit is never held whole). */
export function hashFile(absolute: string): string {
  const hash = createHash("sha256");
  const descriptor = openSync(absolute, "r");
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const read = readSync(descriptor, chunk, 0, chunk.length, null);
      if (read === 0) break;
      hash.update(chunk.subarray(0, read));
    }
  } finally {
    closeSync(descriptor);
  }
  return hash.digest("hex");
}

/** SHA-256 of `bytes`, hex. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * The state of `absolute` now, without following a final symlink. `stored` is left false:
 * the caller decides whether the bytes go to the blob store.
 */
export function readFileState(absolute: string): FileState {
  const stats = lstatOrUndefined(absolute);
  if (stats === undefined) return { kind: "absent" };
  if (stats.isDirectory()) return { kind: "directory", mode: stats.mode & 0o7777 };
  if (stats.isSymbolicLink()) return { kind: "symlink", target: readlinkSync(absolute) };
  if (!stats.isFile()) return { kind: "other" };
  return {
    kind: "file",
    mode: stats.mode & 0o7777,
    size: stats.size,
    // A small file is read whole; a large one in chunks, never held whole.
    hash: stats.size <= 1 << 20 ? hashBytes(readFileSync(absolute)) : hashFile(absolute),
    stored: false,
  };
}

/** Whether two states hold the same thing (bytes and mode, link text, directory mode). */
export function sameState(left: FileState, right: FileState): boolean {
  if (left.kind !== right.kind) return false;
  switch (left.kind) {
    case "file":
      return right.kind === "file" && left.hash === right.hash && left.mode === right.mode;
    case "directory":
      return right.kind === "directory" && left.mode === right.mode;
    case "symlink":
      return right.kind === "symlink" && left.target === right.target;
    default:
      return true;
  }
}

/** A short description of a state for people: `file (12 bytes, 0644)`, `nothing`. */
export function describeState(state: FileState): string {
  switch (state.kind) {
    case "absent":
      return "nothing";
    case "file":
      return `file (${state.size} bytes, ${state.mode.toString(8).padStart(4, "0")})`;
    case "directory":
      return `directory (${state.mode.toString(8).padStart(4, "0")})`;
    case "symlink":
      return `symlink to ${state.target}`;
    default:
      return "a special file";
  }
}
