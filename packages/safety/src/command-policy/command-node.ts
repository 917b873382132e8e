import { checkArgv, checkComputedProgram } from "./check-argv.js";
import { literalArg } from "./context.js";
import { requestPath } from "./path-arguments.js";
import type { SyntaxNode } from "./syntax-node.js";
import { argvContext, toArg, wordScope, type WalkHooks, type WalkScope } from "./walk-scope.js";
import { evaluateWord, type WordInfo } from "./words.js";

/** Builtins that set the variables named among their operands to values the check does not see. */
const SETS_VARIABLES = new Set(["read", "mapfile", "readarray", "getopts", "printf", "let"]);

/** Records a `NAME=VALUE` node (a prefix or a statement); returns its name and value (null: computed). */
export function visitAssignment(
  node: SyntaxNode,
  scope: WalkScope,
  hooks: WalkHooks,
): { name: string; value: string | null } {
  hooks.visitNested(node, scope);
  scope.findings.confirm(`The command sets a variable (\`${node.text.slice(0, 60)}\`)`);
  const target = node.children.find(
    (child) => child.type === "variable_name" || child.type === "subscript",
  );
  const name = (target?.type === "subscript" ? target.children[0] : target)?.text ?? "";
  const operator = node.children.find((child) => child.type === "=" || child.type === "+=");
  const valueNode = node.children.find((child) => child.named && child.field === "value");
  // `x+=y`, `a[1]=y` and arrays are not followed: the value is unknown.
  if (operator?.type !== "=" || target?.type !== "variable_name") return { name, value: null };
  if (valueNode === undefined) return { name, value: "" };
  return { name, value: evaluateWord(valueNode, wordScope(scope, true)).value };
}

/** Follows what changes how later words evaluate: `cd` (relative paths), `set`, `read` and the like. */
function trackShellState(name: string, values: readonly string[], scope: WalkScope): void {
  if (name === "cd" || name === "pushd" || name === "popd") scope.env.set("PWD", null);
  if (name === "set" || name === "shift")
    for (const key of [...scope.env.keys()]) if (/^[1-9]\d*$/.test(key)) scope.env.set(key, null);
  if (SETS_VARIABLES.has(name))
    for (const value of values) if (/^[A-Za-z_]\w*$/.test(value)) scope.env.set(value, null);
}

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

/**
 * Checks one simple command node: its prefix assignments, redirects and words (evaluated
 * statically, substitutions walked), then the program rules on the resulting argv. Returns
 * the argv when every word is plain, for the second lexer's cross-check.
 */
export function visitCommand(
  node: SyntaxNode,
  scope: WalkScope,
  hooks: WalkHooks,
): readonly string[] | null {
  let plain = true;
  const words: SyntaxNode[] = [];
  for (const child of node.children) {
    if (child.type === "variable_assignment") {
      visitAssignment(child, scope, hooks);
      plain = false;
    } else if (REDIRECT_TYPES.has(child.type)) {
      checkRedirect(child, scope, hooks);
    } else if (child.type === "command_name") {
      words.push(child.children[0] ?? child);
    } else if (child.named && child.type !== "comment") {
      words.push(child);
    } else if (!child.named) {
      scope.findings.confirm(
        `The command uses \`${child.text}\` in a way that is not a plain word`,
      );
      plain = false;
    }
  }
  const infos: WordInfo[] = words.map((word) => evaluateWord(word, wordScope(scope)));
  for (const info of infos)
    if (info.note !== null) scope.findings.confirm(`In this command, ${info.note}`);
  for (const word of words) hooks.visitNode(word, scope);
  const [nameInfo, ...argInfos] = infos;
  if (nameInfo === undefined) return null;
  const rest = argInfos.map(toArg);
  const ctx = argvContext(scope);
  if (nameInfo.value !== null) checkArgv([toArg(nameInfo), ...rest], ctx);
  else checkComputedProgram(nameInfo.raw, rest, ctx);
  trackShellState(
    nameInfo.value ?? "",
    rest.map((arg) => arg.value),
    scope,
  );
  plain &&= infos.every((info) => info.plain);
  return plain ? infos.map((info) => info.value ?? "") : null;
}

/**
 * Checks `declare`, `typeset`, `local`, `export` and `readonly` statements as the builtins
 * they are: they change the shell's state, so the command runs in the sandbox. With an
 * option (`declare -n`, `-i`, `-a`), what they assign is not followed.
 */
export function visitDeclaration(node: SyntaxNode, scope: WalkScope, hooks: WalkHooks): void {
  const keyword = node.children.find((child) => !child.named)?.text ?? "";
  scope.findings.confirm(`The command uses \`${keyword}\`, which changes the shell's variables`);
  const words = node.children.filter(
    (child) => child.named && child.type !== "variable_assignment" && child.type !== "comment",
  );
  const args = words.map((word) => toArg(evaluateWord(word, wordScope(scope))));
  const options = args.some((arg) => !arg.known || arg.value.startsWith("-"));
  for (const child of node.children)
    if (child.type === "variable_assignment") {
      const { name, value } = visitAssignment(child, scope, hooks);
      scope.env.set(name, options ? null : value);
    } else if (child.named) hooks.visitNode(child, scope);
  checkArgv([literalArg(keyword), ...args], argvContext(scope));
}
