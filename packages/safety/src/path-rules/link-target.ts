import { lstatSync, readlinkSync } from "node:fs";
import path from "node:path";

/** Symlinks followed at most while resolving, as the kernel allows (ELOOP after 40). */
const MAX_LINKS = 40;

/** A tree that is about to be moved or copied: paths under `to` are looked up under `from`. */
export interface PendingTree {
  readonly from: string;
  readonly to: string;
}

function lookup(candidate: string, pending: PendingTree | undefined): string {
  if (pending === undefined) return candidate;
  const relative = path.relative(pending.to, candidate);
  if (relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative))) {
    return path.join(pending.from, relative);
  }
  return candidate;
}

function readLink(candidate: string): string | undefined {
  try {
    if (!lstatSync(candidate).isSymbolicLink()) return undefined;
    return readlinkSync(candidate);
  } catch {
    return undefined;
  }
}

/**
 * Where a symlink with text `text`, placed in directory `linkDirectory`, really leads,
 * resolved the way the kernel does: component by component, following every symlink on
 * the way and applying `..` to the physical parent (so `link/..` with `link -> /etc` is
 * `/`, not the link's own directory). Components that do not exist are appended as
 * written. `pending` maps a tree that is about to land at `to` back to where it is now.
 * Returns undefined when the chain holds more than 40 links (the kernel's ELOOP).
 *
 * @example
 * // a/b/c/d/e/up -> ../../../../.. is the workspace root in place, and "/" from a/up.
 * resolveLinkTarget(path.join(root, "a"), "../../../../..");
 */
export function resolveLinkTarget(
  linkDirectory: string,
  text: string,
  pending?: PendingTree,
): string | undefined {
  let links = 0;
  const walk = (start: string, target: string): string | undefined => {
    let current = path.isAbsolute(target) ? path.parse(target).root : start;
    for (const part of target.split(/[\\/]+/)) {
      if (part === "" || part === ".") continue;
      if (part === "..") {
        current = path.dirname(current);
        continue;
      }
      const next = path.join(current, part);
      const linkText = readLink(lookup(next, pending));
      if (linkText === undefined) {
        current = next;
        continue;
      }
      if (++links > MAX_LINKS) return undefined;
      const resolved = walk(current, linkText);
      if (resolved === undefined) return undefined;
      current = resolved;
    }
    return current;
  };
  return walk(linkDirectory, text);
}
