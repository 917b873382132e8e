import type { Stats } from "node:fs";
import { readlink } from "node:fs/promises";
import { resolveLinkTarget } from "@xzatoma/safety";
import path from "node:path";
import { describeKind, plural, resolveTarget } from "./file-targets.js";
import { firstProtected, listTree, type TreeListing } from "./tree-listing.js";
import type { WorkspaceContext } from "./workspace-context.js";

/** What copy_path and move_path are asked to do. */
export interface TransferInput {
  readonly source: string;
  readonly destination: string;
  readonly overwrite: boolean;
}

/** A checked copy or move, or why it cannot run. */
export type TransferPlan =
  | {
      readonly ok: true;
      /** The path copied or moved: for a move the entry itself (a symlink stays a link). */
      readonly source: string;
      readonly destination: string;
      readonly sourceName: string;
      readonly destinationName: string;
      readonly listing: TreeListing;
      /** What is at the destination now (it is replaced when `overwrite` is set). */
      readonly existing: Stats | undefined;
      /** Entries of the existing destination that the replacement deletes. */
      readonly existingItems: number;
      /** Why the transfer needs a person's yes: it writes a path that runs code, copies secrets or hard-linked files. */
      readonly concern: string | undefined;
      /** The concern is about a code-running path, so only a person may approve. */
      readonly requiresPerson: boolean;
    }
  | {
      readonly ok: false;
      /** `refused`: never allowed (outside, protected); `invalid`: fails as things are. */
      readonly kind: "refused" | "invalid";
      readonly message: string;
    };

function inside(parent: string, candidate: string): boolean {
  const relative = path.relative(parent, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Checks a copy or move: the source through the guard (for a move, as a write: moving a
 * protected path deletes it), the destination as a write, every path of the tree at its
 * new place (and for a move at its old place) against the protected paths, the workspace
 * root, a destination inside the source, and an existing destination.
 */
export async function planTransfer(
  workspace: WorkspaceContext,
  input: TransferInput,
  operation: "copy" | "move",
  maxItems: number,
): Promise<TransferPlan> {
  const refused = (message: string): TransferPlan => ({ ok: false, kind: "refused", message });
  const invalid = (message: string): TransferPlan => ({ ok: false, kind: "invalid", message });
  const guard = workspace.pathGuard;
  const from = await resolveTarget(
    workspace,
    input.source,
    operation === "move" ? "write" : "read",
    "delete",
  );
  if (!from.ok) return refused(from.message);
  const to = await resolveTarget(workspace, input.destination, "write");
  if (!to.ok) return refused(to.message);
  const source = operation === "move" ? from.entry : from.real;
  if (source === workspace.root) {
    return refused(
      `The source '${input.source}' is the workspace root, which cannot be ${operation}d.`,
    );
  }
  if (to.entry === workspace.root) {
    return refused(
      `The destination '${input.destination}' is the workspace root, which cannot be replaced.`,
    );
  }
  if ((operation === "move" ? from.entryStats : from.stats) === undefined) {
    return invalid(
      `The source '${input.source}' does not exist. Use find_path or list_directory to find it.`,
    );
  }
  const destination = to.entry;
  const sourceName = guard.relative(source);
  const destinationName = guard.relative(destination);
  if (destination === source) {
    return invalid(`The source and the destination are the same path ('${sourceName}').`);
  }
  if (inside(source, destination)) {
    return refused(`Can't ${operation} '${sourceName}' into itself ('${destinationName}').`);
  }
  const existing = to.entryStats;
  if (existing && inside(destination, source)) {
    return refused(`Can't replace '${destinationName}': it contains the source '${sourceName}'.`);
  }
  if (existing && !input.overwrite) {
    return invalid(
      `The destination '${destinationName}' already exists (${describeKind(existing)}). Set overwrite to true to replace it, or choose another destination.`,
    );
  }
  const listing = await listTree(source, maxItems);
  if (listing.tooLarge) {
    return invalid(
      `'${sourceName}' has more than ${plural(maxItems, "item")}; ${operation} smaller parts.`,
    );
  }
  const replaced = existing ? await listTree(destination, maxItems) : undefined;
  if (replaced?.tooLarge) {
    return invalid(
      `The destination '${destinationName}' has more than ${plural(maxItems, "item")}; delete it in smaller parts first.`,
    );
  }
  // One judgement for every entry: where it lands (a copy drops execute bits, a move keeps
  // them), where a move takes it from, and what the replaced destination loses.
  const found = [
    await firstProtected(workspace, destination, listing.entries, {
      kind: "write",
      dropsExecute: operation === "copy",
    }),
    operation === "move"
      ? await firstProtected(workspace, source, listing.entries, { kind: "delete" })
      : undefined,
    replaced
      ? await firstProtected(workspace, destination, replaced.entries, { kind: "delete" })
      : undefined,
  ];
  const never = found.find((entry) => entry?.concern.protection === "never");
  if (never) {
    return refused(
      `The ${operation} would change the protected path '${never.path}': ${never.concern.reason}. No tool may change it.`,
    );
  }
  const escaping =
    operation === "move" ? await escapingLinks(workspace, source, destination, listing) : undefined;
  if (escaping !== undefined) {
    return refused(
      `The ${operation} would leave the symlink '${escaping}' pointing outside the workspace from its new place. Move or copy the files it points to instead.`,
    );
  }
  const person =
    found.find((entry) => entry !== undefined) ??
    (to.concern ? { path: destinationName, concern: to.concern } : undefined);
  const exposure =
    person === undefined ? await readExposure(workspace, source, listing) : undefined;
  return {
    ok: true,
    source,
    destination,
    sourceName,
    destinationName,
    listing,
    existing,
    existingItems: replaced?.entries.length ?? 0,
    concern: person ? `${person.path} is protected: ${person.concern.reason}` : exposure,
    requiresPerson: person !== undefined || exposure !== undefined,
  };
}

/**
 * The first symlink of the tree whose target, read from where the link lands, leaves the
 * workspace (a link `a/b/c/up -> ../../..` is harmless in place and points at `/` once
 * moved to `up`). Copies skip such links entry by entry; a move carries them whole, so it
 * is refused.
 */
async function escapingLinks(
  workspace: WorkspaceContext,
  source: string,
  destination: string,
  listing: TreeListing,
): Promise<string | undefined> {
  for (const entry of listing.entries) {
    if (entry.kind !== "symlink") continue;
    const from = entry.relative === "" ? source : path.join(source, entry.relative);
    const to = entry.relative === "" ? destination : path.join(destination, entry.relative);
    const text = await readlink(from);
    const landing = resolveLinkTarget(path.dirname(to), text, { from: source, to: destination });
    if (landing === undefined || !inside(workspace.root, landing)) {
      return workspace.pathGuard.relative(from);
    }
  }
  return undefined;
}

/**
 * Why copying or moving the tree would expose content a read needs a yes for: a
 * secret-looking file would reappear under an ordinary name, and a hard-linked file may
 * be content from outside the workspace.
 */
async function readExposure(
  workspace: WorkspaceContext,
  source: string,
  listing: TreeListing,
): Promise<string | undefined> {
  for (const entry of listing.entries) {
    if (entry.kind !== "file") continue;
    const absolute = entry.relative === "" ? source : path.join(source, entry.relative);
    const concern = await workspace.pathGuard.readConcern(absolute);
    if (concern !== undefined) return `${concern}, and reading it needs a person's yes`;
  }
  return undefined;
}
