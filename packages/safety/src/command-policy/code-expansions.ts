import { isSubscriptCode } from "./arithmetic-injection.js";
import { refused } from "./denylist.js";
import type { Findings } from "./findings.js";
import type { SyntaxNode } from "./syntax-node.js";

/**
 * Parameter transformations that evaluate a value or turn it into code (bash manual,
 * "Parameter transformation"): `@P` expands the value as a prompt string, running the
 * command substitutions in it; `@E` decodes backslash escapes (hidden text); `@A`, `@K`,
 * `@k` and `@Q` print the value as shell code for `eval`; `@a` prints attributes for
 * re-declaring. Only the case changes `@U`, `@u`, `@L` are plain text operations.
 */
const CODE_TRANSFORMATIONS: ReadonlyMap<string, string> = new Map([
  ["P", "expands the value as a prompt string, which runs the command substitutions in it"],
  ["E", "decodes backslash escapes in the value, which hides the text that runs"],
  ["A", "turns the value into an assignment statement, shell code made to be evaluated"],
  ["K", "turns the value into quoted key-value shell code made to be evaluated"],
  ["k", "turns the value into quoted key-value shell code made to be evaluated"],
  ["Q", "turns the value into quoted shell code made to be evaluated"],
  ["a", "reads variable attributes, used to rebuild declarations as code"],
]);

/** Whether `node` (a word) is or holds an indirect expansion `${!x}`. */
export function hasIndirection(node: SyntaxNode): boolean {
  if (node.type === "expansion" && isIndirect(node)) return true;
  return node.children.some(hasIndirection);
}

function isIndirect(node: SyntaxNode): boolean {
  const body = node.children.filter((child) => child.type !== "${" && child.type !== "}");
  const bang = body.findIndex((child) => child.type === "!" && !child.named);
  const name = body.findIndex((child) => child.named);
  if (bang === -1 || name === -1 || bang > name) return false;
  // `${!prefix*}`, `${!prefix@}` and `${!a[@]}` list names or keys: they evaluate nothing.
  const after = body.slice(name + 1).map((child) => child.type);
  const keys = /\[[@*]\]$/.test(body[name]?.text ?? "");
  return !(after.length === 1 && (after[0] === "*" || after[0] === "@")) && !keys;
}

/**
 * Checks one `${…}` node: transformations that evaluate or produce code block, and an
 * indirect expansion `${!x}` blocks when `$x` names an array element whose subscript
 * runs a command (bash evaluates it), or holds a command substitution.
 */
export function checkExpansion(
  node: SyntaxNode,
  env: ReadonlyMap<string, string>,
  findings: Findings,
): void {
  if (node.type !== "expansion") return;
  const at = node.children.findIndex((child) => child.type === "@" && child.field === "operator");
  const letter = at === -1 ? undefined : node.children[at + 1]?.text;
  const why = letter === undefined ? undefined : CODE_TRANSFORMATIONS.get(letter);
  if (why !== undefined) findings.block(refused(node.text, why));
  if (!isIndirect(node)) return;
  const name = node.children.find((child) => child.named)?.text ?? "";
  const value = env.get(name);
  if (value !== undefined && (isSubscriptCode(value) || /\$\(|`/.test(value)))
    findings.block(
      refused(
        node.text,
        "expands the variable named by a value that holds a command (code hidden in data)",
      ),
    );
}

/** `${!x}` or `${!a[1]}` in source text (not `${!x*}`, `${!x@}` or `${!a[@]}`, which list names). */
const INDIRECT_TEXT = /\$\{![A-Za-z_][A-Za-z0-9_]*(?:\[[^\]@*]*\])?\}/;

/** Whether the source text of a word holds an indirect expansion. */
export function isIndirectText(raw: string): boolean {
  return INDIRECT_TEXT.test(raw);
}

/** A command whose name is an indirect expansion (`${!x} args`): the program is chosen by data. */
export function checkIndirectProgram(name: SyntaxNode, findings: Findings): void {
  if (hasIndirection(name))
    findings.block(
      refused(
        name.text,
        "picks the program to run through an indirect expansion, which hides what runs",
      ),
    );
}
