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
  // The whole text of the expansion, not its leaves: tree-sitter splits a backquoted
  // command that holds `$x` into words around the expansion.
  if (!textOutsideSubstitutions(expansion).includes("`")) return;
  const text = expansion.text;
  const outside = text.replace(BACKQUOTED, "");
  if (outside.replace(/\\./gs, "").includes("`")) {
    scope.findings.incomplete(
      `The command holds a backquote in \`${text}\` that could not be analysed; it needs confirmation.`,
    );
  }
  for (const match of text.matchAll(BACKQUOTED)) {
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

/** The text of `node`'s leaves outside any substitution tree-sitter did parse. */
function textOutsideSubstitutions(node: SyntaxNode): string {
  if (node.type === "command_substitution" || node.type === "process_substitution") return "";
  if (node.children.length === 0) return node.text;
  return node.children.map(textOutsideSubstitutions).join("");
}
