import type { StdinInfo } from "./context.js";
import { requestPath } from "./path-arguments.js";
import { containsType, type SyntaxNode } from "./syntax-node.js";
import { argvContext, toArgs, wordScope, type WalkHooks, type WalkScope } from "./walk-scope.js";
import { evaluateWord } from "./words.js";

const SUBSTITUTIONS = new Set(["command_substitution", "process_substitution"]);
const EXPANSIONS = new Set(["simple_expansion", "expansion"]);

/** The node types that are redirects. */
export const REDIRECT_TYPES: ReadonlySet<string> = new Set([
  "file_redirect",
  "heredoc_redirect",
  "herestring_redirect",
]);

function fileRedirect(node: SyntaxNode, scope: WalkScope): StdinInfo | null {
  const operator = node.children.find((child) => !child.named)?.type ?? ">";
  const input = operator === "<" || operator === "<&";
  let stdin: StdinInfo | null = null;
  for (const target of node.children.filter((child) => child.field === "destination")) {
    if ((operator === ">&" || operator === "<&") && /^(?:\d+|-)$/.test(target.text)) {
      scope.findings.confirm(
        `The command redirects file descriptors (\`${node.text}\`); it needs confirmation.`,
      );
      continue;
    }
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
      scope.findings.confirm(
        `The command reads its input from \`${target.text}\`; it needs confirmation.`,
      );
      requestPath(ctx, arg, "read", operator);
      stdin = {
        kind: "file",
        upstream: [],
        text: null,
        computed: info.substituted,
        source: arg.value,
      };
    } else {
      scope.findings.confirm(
        `The command redirects output to \`${target.text}\`; it needs confirmation.`,
      );
      requestPath(ctx, arg, "write", operator);
    }
  }
  return stdin;
}

function heredoc(node: SyntaxNode, scope: WalkScope, hooks: WalkHooks): StdinInfo {
  scope.findings.confirm("The command feeds a here-document; it needs confirmation.");
  const body = node.children.find((child) => child.type === "heredoc_body");
  const expansions = body?.children.filter((child) => EXPANSIONS.has(child.type)) ?? [];
  const stdin: StdinInfo = {
    kind: "heredoc",
    upstream: [],
    text: body?.text ?? "",
    computed: body !== undefined && containsType(body, SUBSTITUTIONS),
    // `<<EOF` with nothing but `$x` in it: the text is a value the check cannot know.
    opaque:
      expansions.length > 0 &&
      expansions.every((child) => evaluateWord(child, wordScope(scope)).unknown) &&
      expansions.reduce((text, child) => text.replace(child.text, ""), body?.text ?? "").trim() ===
        "",
  };
  if (body !== undefined) hooks.visitNested(body, scope);
  // `cat <<EOF | sh` parses with the pipeline inside the redirect: it reads what the command prints.
  for (const child of node.children.filter(
    (part) => part.named && !part.type.startsWith("heredoc_"),
  )) {
    hooks.visitStatement(child, scope, { ...stdin, kind: "pipe", upstream: ["here-document"] });
  }
  return stdin;
}

/** The files a redirect writes (`> f`, `>> f`, `&> f`), as guesses. */
export function outputTargets(node: SyntaxNode, scope: WalkScope): string[] {
  if (node.type !== "file_redirect") return [];
  const operator = node.children.find((child) => !child.named)?.type ?? ">";
  if (operator === "<" || operator === "<&") return [];
  return node.children
    .filter((child) => child.field === "destination" && !/^(?:\d+|-)$/.test(child.text))
    .flatMap((target) => evaluateWord(target, wordScope(scope)).guesses.slice(0, 1));
}

/**
 * Checks one redirect: output targets are queued as writes (protected files, devices and
 * places outside the workspace block), input files as reads, `/dev/tcp` blocks, and any
 * redirect needs confirmation. Returns the standard input it gives the command, if any.
 */
export function checkRedirect(
  node: SyntaxNode,
  scope: WalkScope,
  hooks: WalkHooks,
): StdinInfo | null {
  if (node.type === "heredoc_redirect") return heredoc(node, scope, hooks);
  hooks.visitNested(node, scope);
  if (node.type === "file_redirect") return fileRedirect(node, scope);
  const word = node.children.find((child) => child.named);
  const info = word === undefined ? null : evaluateWord(word, wordScope(scope));
  scope.findings.confirm(
    `The command feeds a here-string (\`${node.text}\`); it needs confirmation.`,
  );
  return {
    kind: "herestring",
    upstream: [],
    text: info?.guesses.join(" ") ?? "",
    computed: info?.substituted ?? false,
    opaque: info?.opaque ?? false,
  };
}
