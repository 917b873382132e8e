import { checkArgv, checkComputedProgram } from "./check-argv.js";
import { literalArg, type Arg } from "./context.js";
import { REDIRECT_TYPES, checkRedirect } from "./redirects.js";
import type { SyntaxNode } from "./syntax-node.js";
import { argvContext, toArgs, wordScope, type WalkHooks, type WalkScope } from "./walk-scope.js";
import { evaluateWord, type WordInfo } from "./words.js";
import { changeDirectory, trackPhysicalOption } from "./working-directory.js";

/** Records a `NAME=VALUE` node (a prefix or a statement) and returns its name and value guess. */
export function visitAssignment(
  node: SyntaxNode,
  scope: WalkScope,
  hooks: WalkHooks,
): { name: string; value: string } {
  hooks.visitNested(node, scope);
  scope.findings.confirm(
    `The command sets a variable (\`${node.text.slice(0, 60)}\`); it runs in the sandbox.`,
  );
  const target = node.children.find(
    (child) => child.type === "variable_name" || child.type === "subscript",
  );
  const name =
    target?.type === "subscript"
      ? (target.children.find((child) => child.type === "variable_name")?.text ?? "")
      : (target?.text ?? "");
  const equals = node.children.findIndex(
    (child) => !child.named && (child.type === "=" || child.type === "+="),
  );
  const valueNode =
    equals === -1 ? undefined : node.children.slice(equals + 1).find((child) => child.named);
  const value =
    valueNode === undefined
      ? ""
      : evaluateWord(valueNode, wordScope(scope), { assignment: true }).guesses.join(" ");
  return { name, value };
}

/** Follows the builtins that change how later commands resolve: `cd`/`pushd`/`popd` and `set --`. */
function trackShellState(argv: readonly Arg[], scope: WalkScope): void {
  const name = argv[0]?.value ?? "";
  const args = argv.slice(1).map((arg) => arg.value);
  if (name === "cd" || name === "pushd" || name === "popd") {
    changeDirectory(name, argv, scope.env, scope.policy.home, scope.policy.root);
  } else if (name === "set" || (name === "shopt" && args.includes("-o")))
    trackPhysicalOption(args, scope.env);
  if (name === "set" && args.includes("--")) {
    const positional = args.slice(args.indexOf("--") + 1);
    positional.forEach((value, index) => scope.env.set(String(index + 1), value));
    scope.env.set("@", positional.join(" ")).set("*", positional.join(" "));
  }
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
        `The command uses \`${child.text}\` in a way that is not a plain word; it runs in the sandbox.`,
      );
      plain = false;
    }
  }
  const infos: WordInfo[] = words.map((word) => evaluateWord(word, wordScope(scope)));
  for (const info of infos)
    if (info.note !== null)
      scope.findings.confirm(`In this command, ${info.note}; it runs in the sandbox.`);
  for (const word of words) hooks.visitNode(word, scope);
  const [nameInfo, ...argInfos] = infos;
  if (nameInfo === undefined) return null;
  const rest: Arg[] = argInfos.flatMap(toArgs);
  const ctx = argvContext(scope);
  if (nameInfo.exact) checkArgv([...toArgs(nameInfo), ...rest], ctx);
  else checkComputedProgram(nameInfo.guesses, rest, nameInfo.raw, ctx);
  trackShellState([...toArgs(nameInfo).slice(0, 1), ...rest], scope);
  plain &&= infos.every((info) => info.plain);
  return plain ? [...nameInfo.guesses, ...rest.map((arg) => arg.value)] : null;
}

/**
 * Checks `declare`, `typeset`, `local`, `export`, `readonly` and `unset` statements as the
 * builtins they are: they change the shell's state, so the command runs in the sandbox.
 */
export function visitDeclaration(node: SyntaxNode, scope: WalkScope): void {
  const keyword = node.children.find((child) => !child.named)?.text ?? "";
  scope.findings.confirm(
    `The command uses \`${keyword}\`, which changes the shell's variables; it runs in the sandbox.`,
  );
  const words = node.children.filter(
    (child) => child.named && child.type !== "variable_assignment" && child.type !== "comment",
  );
  const args = words.flatMap((word) => toArgs(evaluateWord(word, wordScope(scope))));
  checkArgv([literalArg(keyword), ...args], argvContext(scope));
}
