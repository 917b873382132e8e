import type { ConversationTree } from "@xzatoma/persistence";

function countPruned(tree: ConversationTree): number {
  return (
    tree.messages.filter((stored) => stored.pruned).length +
    tree.children.reduce((total, child) => total + countPruned(child), 0)
  );
}

/**
 * The line under `history show` that says what `[pruned]` means, when any message is: the
 * history keeps it, the model no longer sees it (a summary stands for it).
 */
export function prunedLegend(tree: ConversationTree): string | undefined {
  const pruned = countPruned(tree);
  if (pruned === 0) return undefined;
  return `[pruned]: ${pruned} message${pruned === 1 ? "" : "s"} kept in history that the model no longer sees (pruned to fit its context window; a summary stands for them).`;
}
