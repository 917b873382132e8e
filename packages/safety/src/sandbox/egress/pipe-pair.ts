// Two pipes between XZatoma and the sandbox, one per direction. Node cannot make an
// anonymous pipe, so each is a FIFO made with mkfifo in a private directory, opened at
// both ends here and unlinked at once: afterwards it has no name anyone could open.
import { execFile } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { findProgram } from "../find-program.js";

/** Both pipes: XZatoma's ends as streams, the sandbox's ends as descriptors to hand it. */
export interface PipePair {
  /** XZatoma reads what the sandbox writes to {@link PipePair.childWrite}. */
  readonly input: net.Socket;
  /** XZatoma writes what the sandbox reads from {@link PipePair.childRead}. */
  readonly output: net.Socket;
  readonly childRead: number;
  readonly childWrite: number;
  /** Closes XZatoma's copies of the sandbox's ends (idempotent). */
  closeChildEnds(): void;
}

/**
 * Makes the pipes in a new directory under `parent` (mode 0700, removed before this
 * returns). Throws when mkfifo is missing or fails.
 */
export async function createPipePair(parent: string): Promise<PipePair> {
  const mkfifo = findProgram("mkfifo", ["/usr/bin/mkfifo", "/bin/mkfifo"], undefined);
  if (mkfifo === undefined) {
    throw new Error("the sandbox's network needs mkfifo (from coreutils), which is missing");
  }
  const directory = await mkdtemp(path.join(parent, "xzatoma-egress-"));
  const opened: number[] = [];
  try {
    const down = path.join(directory, "to-sandbox");
    const up = path.join(directory, "from-sandbox");
    await promisify(execFile)(mkfifo, ["-m", "600", down, up]);
    // Reading ends first, non-blocking: opening a FIFO blocks until both ends are open.
    const open = (file: string, flags: number) => {
      const fd = openSync(file, flags);
      opened.push(fd);
      return fd;
    };
    const childRead = open(down, constants.O_RDONLY | constants.O_NONBLOCK);
    const hostWrite = open(down, constants.O_WRONLY | constants.O_NONBLOCK);
    const hostRead = open(up, constants.O_RDONLY | constants.O_NONBLOCK);
    const childWrite = open(up, constants.O_WRONLY | constants.O_NONBLOCK);
    const input = new net.Socket({ fd: hostRead, readable: true, writable: false });
    const output = new net.Socket({ fd: hostWrite, readable: false, writable: true });
    let childEndsOpen = true;
    return {
      input,
      output,
      childRead,
      childWrite,
      closeChildEnds() {
        if (!childEndsOpen) return;
        childEndsOpen = false;
        closeSync(childRead);
        closeSync(childWrite);
      },
    };
  } catch (error) {
    for (const fd of opened) closeSync(fd);
    throw error;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
