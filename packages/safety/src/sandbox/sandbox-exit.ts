import { readFile, readlink } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";

/** What bubblewrap wrote to `--info-fd`: its child (the sandbox's pid 1) and that pid namespace. */
export interface SandboxInit {
  readonly pid: number;
  readonly pidNamespace: number;
}

/** Reads bwrap's report; undefined when bwrap never started its child. */
export async function readSandboxInit(infoFile: string): Promise<SandboxInit | undefined> {
  let text: string;
  try {
    text = await readFile(infoFile, "utf8");
  } catch {
    return undefined;
  }
  // bwrap writes one JSON object before the command starts; whatever follows is ignored.
  const end = text.indexOf("}");
  if (end < 0) return undefined;
  try {
    const info = JSON.parse(text.slice(0, end + 1)) as Record<string, unknown>;
    const pid = info["child-pid"];
    const pidNamespace = info["pid-namespace"];
    if (typeof pid !== "number" || typeof pidNamespace !== "number") return undefined;
    return { pid, pidNamespace };
  } catch {
    return undefined;
  }
}

async function isRunning(init: SandboxInit): Promise<boolean> {
  try {
    // The same pid in another namespace is another process (the number was reused).
    if ((await readlink(`/proc/${init.pid}/ns/pid`)) !== `pid:[${init.pidNamespace}]`) return false;
    const stat = await readFile(`/proc/${init.pid}/stat`, "utf8");
    // Field 3, after the parenthesised name; a zombie pid 1 has already reaped its namespace.
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/**
 * Waits until the sandbox's pid 1 has ended. The kernel ends pid 1 only after every other
 * process of its pid namespace is gone, so afterwards nothing of the command can still
 * touch the upper directory. When the caller killed bwrap, its child dies a moment later
 * (die-with-parent); this closes that moment. Returns false when `timeoutMs` passed first.
 */
export async function waitForSandboxExit(
  init: SandboxInit | undefined,
  timeoutMs: number,
): Promise<boolean> {
  if (init === undefined) return true;
  const deadline = Date.now() + timeoutMs;
  let pause = 1;
  while (await isRunning(init)) {
    if (Date.now() > deadline) return false;
    await delay(pause);
    pause = Math.min(pause * 2, 50);
  }
  return true;
}
