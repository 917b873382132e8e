import { lstat, readlink } from "node:fs/promises";
import path from "node:path";

/** The kernel gives up after this many symlinks in one path (`ELOOP`); so does the check. */
const MAX_SYMLINKS = 40;

/** Pseudo-filesystems whose symlinks describe the checking process, not the command's. */
const PSEUDO_ROOTS = ["/proc", "/sys", "/dev"];

/** A path with more symlinks than the kernel follows. */
export class SymlinkLoopError extends Error {}

function components(text: string): string[] {
  return text.split("/").filter((part) => part !== "" && part !== ".");
}

function isPseudo(directory: string): boolean {
  return PSEUDO_ROOTS.some((root) => directory === root || directory.startsWith(`${root}/`));
}

/** Whether `text` has a `..` component, the only case where lexical and physical paths differ. */
export function hasParentStep(text: string): boolean {
  return text.split("/").includes("..");
}

/**
 * Resolves the absolute path `absolute` one component at a time, the way the kernel does
 * for `open(2)` and `chdir(2)`: a symlink is replaced by its target before the next
 * component, so `..` after a symlink leaves the target, not the link (`sub/x/../y` with
 * `sub/x -> /etc` is `/y`, where a lexical `path.resolve` says `sub/y`). Components that
 * do not exist are appended lexically; `/proc`, `/sys` and `/dev` are not followed (their
 * links describe this process). `trusted` is a real directory (the workspace root) whose
 * own components need no look-up. Throws {@link SymlinkLoopError} past 40 symlinks.
 */
export async function physicalPath(absolute: string, trusted?: string): Promise<string> {
  let pending = components(absolute);
  let current = "/";
  if (trusted !== undefined && (absolute === trusted || absolute.startsWith(`${trusted}/`))) {
    current = trusted;
    pending = components(absolute.slice(trusted.length));
  }
  let hops = 0;
  for (let part = pending.shift(); part !== undefined; part = pending.shift()) {
    if (part === "..") {
      current = path.posix.dirname(current);
      continue;
    }
    const next = current === "/" ? `/${part}` : `${current}/${part}`;
    if (isPseudo(next)) return path.posix.join(next, ...pending);
    const stats = await lstat(next).catch(() => null);
    if (stats === null) return path.posix.join(next, ...pending);
    if (!stats.isSymbolicLink()) {
      current = next;
      continue;
    }
    hops += 1;
    if (hops > MAX_SYMLINKS) throw new SymlinkLoopError(`${absolute} has too many symlinks`);
    const target = await readlink(next);
    if (target.startsWith("/")) current = "/";
    pending = [...components(target), ...pending];
  }
  return current;
}
