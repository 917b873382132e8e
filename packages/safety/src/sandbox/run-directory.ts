import { chmodSync, closeSync, openSync, readdirSync, rmSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { constants } from "node:fs";
import path from "node:path";

/** The private directory of one sandboxed command, and the descriptors it hands the child. */
export interface RunDirectory {
  readonly root: string;
  /** The overlay's upper and work directories. */
  readonly upper: string;
  readonly work: string;
  /** Where the read-only overlay of the opaque-directory probe is mounted. */
  readonly probeMount: string;
  /** Laid over hidden files and directories of `/etc`: empty, mode 000. */
  readonly maskFile: string;
  readonly maskDirectory: string;
  /** Laid over the workspace's secret-looking files and directories: empty, readable. */
  readonly secretFile: string;
  readonly secretDirectory: string;
  /** Open on the seccomp program (read by bwrap) and on the file bwrap reports its child in. */
  readonly seccompFd: number;
  readonly infoFd: number;
  readonly infoFile: string;
  /** Closes the descriptors (idempotent). */
  closeDescriptors(): void;
}

/**
 * Makes the run's directory (mode 0700) under `parent` with the seccomp program written
 * and opened for the child.
 */
export async function createRunDirectory(parent: string, seccomp: Buffer): Promise<RunDirectory> {
  const root = await mkdtemp(path.join(parent, "xzatoma-sandbox-"));
  try {
    await chmod(root, 0o700);
    const upper = path.join(root, "upper");
    const work = path.join(root, "work");
    const probeMount = path.join(root, "probe");
    const maskDirectory = path.join(root, "mask-directory");
    const maskFile = path.join(root, "mask-file");
    const secretDirectory = path.join(root, "secret-directory");
    const secretFile = path.join(root, "secret-file");
    const seccompFile = path.join(root, "seccomp.bpf");
    const infoFile = path.join(root, "info.json");
    await Promise.all([
      mkdir(upper, { mode: 0o755 }),
      mkdir(work, { mode: 0o700 }),
      mkdir(probeMount, { mode: 0o700 }),
      mkdir(maskDirectory, { mode: 0o000 }),
      writeFile(maskFile, "", { mode: 0o000 }),
      mkdir(secretDirectory, { mode: 0o555 }),
      writeFile(secretFile, "", { mode: 0o444 }),
      writeFile(seccompFile, seccomp, { mode: 0o600 }),
    ]);
    // The umask may have left bits on: the overlay's root takes the upper's mode.
    await chmod(upper, 0o755);
    const seccompFd = openSync(seccompFile, constants.O_RDONLY);
    let infoFd: number;
    try {
      infoFd = openSync(
        infoFile,
        constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,
        0o600,
      );
    } catch (error) {
      closeSync(seccompFd);
      throw error;
    }
    let open = true;
    return {
      root,
      upper,
      work,
      probeMount,
      maskFile,
      maskDirectory,
      secretFile,
      secretDirectory,
      seccompFd,
      infoFd,
      infoFile,
      closeDescriptors() {
        if (!open) return;
        open = false;
        closeSync(seccompFd);
        closeSync(infoFd);
      },
    };
  } catch (error) {
    await removeRunDirectory(root);
    throw error;
  }
}

/**
 * Removes a run's directory. Entries a command made unreadable (mode 000 directories, the
 * overlay's own work directory) are opened up first when the plain removal fails, which
 * happens when XZatoma is not root.
 */
export async function removeRunDirectory(root: string): Promise<void> {
  try {
    await rm(root, { recursive: true, force: true });
    return;
  } catch {
    // fall through: open up the tree, then retry
  }
  const openUp = async (directory: string): Promise<void> => {
    await chmod(directory, 0o700).catch(() => undefined);
    const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isDirectory()) await openUp(path.join(directory, entry.name));
    }
  };
  await openUp(root);
  await rm(root, { recursive: true, force: true });
}

/** {@link removeRunDirectory} for the process's exit, when nothing asynchronous runs. */
export function removeRunDirectorySync(root: string): void {
  try {
    rmSync(root, { recursive: true, force: true });
    return;
  } catch {
    // fall through
  }
  const openUp = (directory: string): void => {
    try {
      chmodSync(directory, 0o700);
      for (const entry of readdirSync(directory, { withFileTypes: true })) {
        if (entry.isDirectory()) openUp(path.join(directory, entry.name));
      }
    } catch {
      // best effort
    }
  };
  openUp(root);
  try {
    rmSync(root, { recursive: true, force: true });
  } catch {
    // best effort at exit
  }
}
