import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Content-addressed storage of file bytes under `<data dir>/checkpoints/blobs/`: one file
 * per distinct content, named by its SHA-256 (`ab/cdef…`). A content that is already there
 * is not written again, so an unchanged file recorded by many turns costs its bytes once.
 */
export interface BlobStore {
  /** The directory the blobs live in. */
  readonly directory: string;
  /** Stores `bytes` under `hash` (their SHA-256) unless present; returns the bytes added. */
  put(hash: string, bytes: Uint8Array): number;
  /** The bytes stored under `hash`, or undefined. */
  get(hash: string): Buffer | undefined;
  /** Where the blob of `hash` lives. */
  pathOf(hash: string): string;
}

/** Creates the blob store of a checkpoints directory. */
export function createBlobStore(checkpointsDirectory: string): BlobStore {
  const directory = path.join(checkpointsDirectory, "blobs");
  const pathOf = (hash: string) => path.join(directory, hash.slice(0, 2), hash.slice(2));
  const made = new Set<string>();
  return {
    directory,
    pathOf,
    put(hash, bytes) {
      const target = pathOf(hash);
      if (existsSync(target)) return 0;
      const parent = path.dirname(target);
      if (!made.has(parent)) {
        mkdirSync(parent, { recursive: true, mode: 0o700 });
        made.add(parent);
      }
      // Written whole, then renamed: a blob that exists is complete.
      const temporary = `${target}.${process.pid}.tmp`;
      writeFileSync(temporary, bytes, { mode: 0o600 });
      renameSync(temporary, target);
      return bytes.length;
    },
    get(hash) {
      try {
        return readFileSync(pathOf(hash));
      } catch {
        return undefined;
      }
    },
  };
}
