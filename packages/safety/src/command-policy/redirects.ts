import { requestPath } from "./path-arguments.js";
import type { SyntaxNode } from "./syntax-node.js";
import { argvContext, toArgs, wordScope, type WalkHooks, type WalkScope } from "./walk-scope.js";
import { evaluateWord } from "./words.js";

/** The node types that are redirects. */
export const REDIRECT_TYPES: ReadonlySet<string> = new Set([
  "file_redirect",
  "heredoc_redirect",
  "herestring_redirect",
]);

/** Output that goes nowhere: a read-only command may still send its errors there. */
const DISCARDED = /^\/dev\/null$/;

function fileRedirect(node: SyntaxNode, scope: WalkScope): void {
  const operator = node.children.find((child) => !child.named)?.type ?? ">";
  const input = operator === "<" || operator === "<&";
  for (const target of node.children.filter((child) => child.field === "destination")) {
    // `2>&1`, `>&2`: one of the command's own descriptors onto another.
    if ((operator === ">&" || operator === "<&") && /^\d+$/.test(target.text)) continue;
    const info = evaluateWord(target, wordScope(scope));
    const arg = toArgs(info)[0] ?? {
      value: "",
      exact: false,
      plain: false,
      glob: false,
      substituted: info.substituted,
      raw: info.raw,
    };
    const ctx = argvContext(scope);
    if (input) {
      requestPath(ctx, arg, "read", operator);
      if (!info.plain)
        scope.findings.confirm(
          `The command reads from a computed place (\`${target.text}\`); it runs in the sandbox.`,
        );
      continue;
    }
    requestPath(ctx, arg, "write", operator);
    if (!(info.plain && DISCARDED.test(arg.value)))
      scope.findings.confirm(`The command writes to \`${target.text}\`; it runs in the sandbox.`);
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
  scope.findings.confirm(
    `The command feeds text to a program (\`${node.text.slice(0, 60)}\`); it runs in the sandbox.`,
  );
  // `cat <<EOF | sh` parses with the pipeline inside the redirect.
  for (const child of node.children.filter(
    (part) => part.named && !part.type.startsWith("heredoc_"),
  ))
    hooks.visitStatement(child, scope);
}
