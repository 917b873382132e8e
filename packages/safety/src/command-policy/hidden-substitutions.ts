import type { SyntaxNode } from "./syntax-node.js";
import { currentDirectory, type WalkScope } from "./walk-scope.js";

/** A backquoted command, `\`…\``, with bash's escapes inside it. */
const BACKQUOTED = /`((?:\\.|[^`\\])*)`/gs;

/**
 * Commands inside a `${…}` expansion that tree-sitter-bash reads as plain text: it parses
 * `$(…)` there, but gives `${x:-\`cmd\`}` and `${x#\`cmd\`}` a word or regex holding the
 * backquotes, where bash runs `cmd`. Each such command is analysed as the script it is; a
 * backquote without its pair cannot be analysed, so it needs a person.
 */
export function checkHiddenSubstitutions(expansion: SyntaxNode, scope: WalkScope): void {
  for (const leaf of leaves(expansion)) {
    if (!leaf.text.includes("`")) continue;
    const outside = leaf.text.replace(BACKQUOTED, "");
    if (outside.replace(/\\./gs, "").includes("`")) {
      scope.findings.incomplete(
        `The command holds a backquote in \`${expansion.text}\` that could not be analysed; it needs confirmation.`,
      );
    }
    for (const match of leaf.text.matchAll(BACKQUOTED)) {
      const script = (match[1] ?? "").replace(/\\([`$\\])/g, "$1");
      // A real script bash runs, judged as `$(…)` is; inside text that may only be a
      // command (embedded), only its clear blocks count.
      const mode = scope.embedded ? "literal" : "script";
      scope.findings.merge(
        scope.policy.nested(script, scope.depth + 1, mode, [], currentDirectory(scope)),
        {
          note: `The command runs a substitution (\`${match[0]}\`); it needs confirmation.`,
          blocksOnly: scope.embedded,
        },
      );
    }
  }
}

/** The nodes without children below `node`, outside any substitution tree-sitter did parse. */
function leaves(node: SyntaxNode): SyntaxNode[] {
  if (node.type === "command_substitution" || node.type === "process_substitution") return [];
  if (node.children.length === 0) return [node];
  return node.children.flatMap(leaves);
}
