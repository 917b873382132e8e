import {
  REDIRECT_TYPES,
  checkRedirect,
  visitAssignment,
  visitCommand,
  visitDeclaration,
} from "./command-node.js";
import { countType, fieldChildren, namedChildren, type SyntaxNode } from "./syntax-node.js";
import { wordScope, type WalkHooks, type WalkScope } from "./walk-scope.js";
import { evaluateWord } from "./words.js";

/** A loop body is walked once per value the loop takes, when it takes at most this many. */
const MAX_LOOP_VALUES = 8;

const SUBSTITUTIONS = new Set(["command_substitution", "process_substitution"]);
/** Constructs that keep a command from running directly, with what they do. */
const CONSTRUCTS: ReadonlyMap<string, string> = new Map(
  `subshell: runs commands in a subshell \`( … )\`
compound_statement: groups commands in \`{ … }\` or \`(( … ))\`
negated_command: negates a command with \`!\`
if_statement: uses an \`if\` statement
while_statement: uses a loop
for_statement: uses a loop
c_style_for_statement: uses a loop
case_statement: uses a \`case\` statement
function_definition: defines a shell function
test_command: uses a shell test \`[[ … ]]\``
    .split("\n")
    .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
);
const STATEMENTS = new Set([
  ...CONSTRUCTS.keys(),
  ..."command redirected_statement pipeline list declaration_command unset_command".split(" "),
  "variable_assignment",
  "variable_assignments",
]);

function visitNode(node: SyntaxNode, scope: WalkScope): void {
  if (SUBSTITUTIONS.has(node.type)) {
    scope.findings.confirm(`The command runs a substitution (\`${node.text.slice(0, 60)}\`)`);
    const inner: WalkScope = { ...scope, env: new Map(scope.env) };
    for (const statement of namedChildren(node)) visitStatement(statement, inner);
  } else if (STATEMENTS.has(node.type)) {
    visitStatement(node, scope);
  } else {
    if (node.type === "expansion" || node.type === "arithmetic_expansion")
      scope.findings.confirm(`The command expands \`${node.text.slice(0, 60)}\``);
    visitNested(node, scope);
  }
}

function visitNested(node: SyntaxNode, scope: WalkScope): void {
  for (const child of node.children) visitNode(child, scope);
}

const HOOKS: WalkHooks = { visitNested, visitNode, visitStatement };

/** Walks a `for` loop's body once per known value of its variable (else once, the value unknown). */
function visitLoop(node: SyntaxNode, scope: WalkScope): void {
  const variable = fieldChildren(node, "variable")[0]?.text;
  const values = fieldChildren(node, "value");
  values.forEach((value) => visitNode(value, scope));
  const known = values.map((value) => evaluateWord(value, wordScope(scope)).value);
  const walked =
    known.length > 0 && known.length <= MAX_LOOP_VALUES && !known.includes(null) ? known : [null];
  for (const value of walked) {
    if (variable !== undefined) scope.env.set(variable, value);
    fieldChildren(node, "body").forEach((statement) => visitNested(statement, scope));
  }
}

/**
 * Walks one statement. Plain simple commands joined by `|`, `&&`, `||` and `;` add no
 * finding of their own: each is judged by itself. Every other construct (loops, functions,
 * subshells, background jobs) keeps the command from running directly. Returns the argv of a
 * simple command of plain words, else null.
 */
function visitStatement(node: SyntaxNode, scope: WalkScope): readonly string[] | null {
  switch (node.type) {
    case "command": {
      const argv = visitCommand(node, scope, HOOKS);
      if (scope.depth === 0) scope.policy.collect?.push(argv);
      return argv;
    }
    case "redirected_statement": {
      for (const child of node.children)
        if (REDIRECT_TYPES.has(child.type)) checkRedirect(child, scope, HOOKS);
      const body = node.children.find((child) => child.field === "body");
      if (body !== undefined) visitStatement(body, scope);
      return null;
    }
    case "pipeline":
    case "list":
      for (const child of namedChildren(node)) visitStatement(child, scope);
      return null;
    case "variable_assignment": {
      const { name, value } = visitAssignment(node, scope, HOOKS);
      scope.env.set(name, value);
      return null;
    }
    case "declaration_command":
      visitDeclaration(node, scope, HOOKS);
      return null;
    case "unset_command":
      scope.findings.confirm("The command unsets shell variables");
      for (const name of namedChildren(node)) scope.env.set(name.text, null);
      visitNested(node, scope);
      return null;
    case "for_statement":
      scope.findings.confirm("The command uses a loop");
      visitLoop(node, scope);
      return null;
    default: {
      const construct = CONSTRUCTS.get(node.type);
      scope.findings.confirm(
        construct !== undefined
          ? `The command ${construct}`
          : `The command uses shell syntax this check does not know (${node.type})`,
      );
      visitNested(node, node.type === "subshell" ? { ...scope, env: new Map(scope.env) } : scope);
      return null;
    }
  }
}

/** What walking a whole script found besides its findings. */
export interface ScriptSummary {
  /** Simple commands in the script. */
  readonly segments: number;
}

/**
 * Walks the syntax tree of a whole script: every statement, substitution, redirect,
 * assignment, loop and function, in order, with the variables it assigns.
 */
export function walkScript(root: SyntaxNode, scope: WalkScope): ScriptSummary {
  if (root.children.some((child) => child.type === "&"))
    scope.findings.confirm("The command runs something in the background");
  for (const statement of namedChildren(root)) visitStatement(statement, scope);
  return { segments: countType(root, "command") };
}
