import type { Arg, ArgvContext } from "./context.js";
import { refused } from "./denylist.js";
import type { Findings } from "./findings.js";
import type { SyntaxNode } from "./syntax-node.js";

/**
 * Bash evaluates array subscripts as arithmetic, and arithmetic expands what it finds in
 * a subscript, command substitutions included. So text such as `a[$(id)]` runs `id` when
 * it reaches any arithmetic context or any builtin that takes a variable name: `$((x))`,
 * `((x))`, `[[ $x -eq 0 ]]`, `${a[x]}`, `${s:x}`, `let`, `declare -i`, `declare -n`,
 * `printf -v`, `read`, `unset`, `test -v`, `[[ -v ]]`. Text shaped like that is code
 * hidden in data; it is refused wherever it appears in a value or a name.
 */
const SUBSCRIPT_CODE = /\w\s*\[[^[\]]*(?:\$\(|`)/;

/** Text that runs commands when bash expands it: a command substitution. */
const COMMAND_TEXT = /\$\(|`/;

/** `[[ … ]]` operators whose operands bash evaluates as arithmetic or as variable names. */
const ARITHMETIC_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-v", "-R"]);

/** Builtins whose arguments are variable names or arithmetic. */
const NAME_SINKS = new Set([
  "declare",
  "typeset",
  "local",
  "export",
  "readonly",
  "let",
  "unset",
  "read",
  "printf",
  "getopts",
  "mapfile",
  "readarray",
  "test",
  "[",
  "wait",
  "shift",
  "exit",
  "return",
  "break",
  "continue",
  "ulimit",
]);

const WHY =
  "holds an array subscript that runs a command substitution, which bash runs when it evaluates the text as arithmetic or as a variable name (code hidden in data)";

/** Whether `text` is shaped like an array subscript with a command substitution in it. */
export function isSubscriptCode(text: string): boolean {
  return SUBSCRIPT_CODE.test(text);
}

/** Blocks a value (its source `raw` or its evaluated `value`) shaped like subscript code. */
export function checkSubscriptCode(
  subject: string,
  raw: string,
  value: string,
  findings: Findings,
): void {
  if (isSubscriptCode(raw) || isSubscriptCode(value)) findings.block(refused(subject, WHY));
}

/** Arguments of builtins that take names or arithmetic (`unset 'a[$(id)]'`, `let …`). */
export function checkNameSinks(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  if (!NAME_SINKS.has(name)) return;
  for (const arg of args.slice(1)) {
    checkSubscriptCode(`${name} ${arg.raw}`, arg.raw, arg.value, ctx.findings);
    if (name === "let" && COMMAND_TEXT.test(arg.value))
      ctx.findings.block(
        refused(`let ${arg.raw}`, "evaluates text holding a command substitution as arithmetic"),
      );
  }
}

function variableNames(node: SyntaxNode, names: Set<string>): void {
  if (node.type === "variable_name") names.add(node.text);
  if (node.type === "command_substitution") return;
  for (const child of node.children) variableNames(child, names);
}

function hasSubstitution(node: SyntaxNode): boolean {
  return node.type === "command_substitution" || node.children.some(hasSubstitution);
}

/**
 * Checks one node of an arithmetic context (`$(( ))`, `(( ))`, `for (( ))`, `[[ ]]`, a
 * subscript): a subscript that runs a command substitution, or a variable whose value
 * holds a command substitution (bash evaluates it again), blocks.
 */
export function checkArithmeticNode(
  node: SyntaxNode,
  env: ReadonlyMap<string, string>,
  findings: Findings,
): void {
  const names = new Set<string>();
  variableNames(node, names);
  for (const name of names) {
    const value = env.get(name);
    if (value !== undefined && COMMAND_TEXT.test(value))
      findings.block(
        refused(
          `${name}=${value}`,
          "is used in arithmetic, and bash evaluates the command substitution in its value (code hidden in data)",
        ),
      );
  }
  if (node.type !== "test_command") return;
  const visit = (current: SyntaxNode): void => {
    const operator = current.children.find((child) => child.type === "test_operator")?.text;
    if (operator !== undefined && ARITHMETIC_TESTS.has(operator)) {
      for (const operand of current.children.filter((child) => child.named)) {
        if (operand.type === "test_operator") continue;
        if (isSubscriptCode(operand.text) || isSubscriptCode(operand.text.replace(/['"]/g, "")))
          findings.block(refused(`[[ ${current.text} ]]`, WHY));
      }
    }
    current.children.forEach(visit);
  };
  visit(node);
}

/** A subscript node (`a[$(id)]`, `${a[$(id)]}`, `(( x[$(id)] ))`) whose index runs a command. */
export function checkSubscriptNode(node: SyntaxNode, findings: Findings): void {
  const index = node.children.filter((child) => child.field === "index" || child.named);
  if (index.some((child) => child.type !== "variable_name" && hasSubstitution(child)))
    findings.block(refused(node.text, WHY));
}
