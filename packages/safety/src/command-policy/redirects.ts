import { requestPath } from "./path-arguments.js";
import type { SyntaxNode } from "./syntax-node.js";
import { argvContext, toArg, wordScope, type WalkHooks, type WalkScope } from "./walk-scope.js";
import { evaluateWord } from "./words.js";

/** The node types that are redirects. */
export const REDIRECT_TYPES: ReadonlySet<string> = new Set(
  "file_redirect heredoc_redirect herestring_redirect".split(" "),
);

function fileRedirect(node: SyntaxNode, scope: WalkScope): void {
  const operator = node.children.find((child) => !child.named)?.type ?? ">";
  const input = operator === "<" || operator === "<&";
  for (const target of node.children.filter((child) => child.field === "destination")) {
    // `2>&1`, `>&2`: one of the command's own descriptors onto another.
    if ((operator === ">&" || operator === "<&") && /^\d+$/.test(target.text)) continue;
    const info = evaluateWord(target, wordScope(scope));
    if (/\/dev\/(?:tcp|udp)\//.test(info.value ?? target.text))
      scope.findings.escalate(
        "network",
        `The command opens \`${target.text}\`, a network connection`,
      );
    requestPath(argvContext(scope), toArg(info), input ? "read" : "write", operator);
    if (input ? !info.plain : !(info.plain && info.value === "/dev/null"))
      scope.findings.confirm(
        `The command ${input ? "reads from a computed place" : "writes to"} \`${target.text}\``,
      );
  }
}

/**
 * Checks one redirect: output targets are queued as writes (protected files and places
 * outside the workspace escalate), input files as reads. Output to anything but `/dev/null`
 * and here-documents keep the command from running directly; substitutions inside are walked.
 */
export function checkRedirect(node: SyntaxNode, scope: WalkScope, hooks: WalkHooks): void {
  hooks.visitNested(node, scope);
  if (node.type === "file_redirect") {
    fileRedirect(node, scope);
    return;
  }
  scope.findings.confirm(`The command feeds text to a program (\`${node.text.slice(0, 60)}\`)`);
  // `cat <<EOF | sh` parses with the pipeline inside the redirect.
  for (const child of node.children.filter(
    (part) => part.named && !part.type.startsWith("heredoc_"),
  ))
    hooks.visitStatement(child, scope);
}
