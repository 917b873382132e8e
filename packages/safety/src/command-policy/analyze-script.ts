import { checkArithmeticNode, checkSubscriptNode } from "./arithmetic-injection.js";
import { checkExpansion } from "./code-expansions.js";
import { checkHiddenSubstitutions } from "./hidden-substitutions.js";
import { visitAssignment, visitCommand, visitDeclaration } from "./command-node.js";
import { refused } from "./denylist.js";
import { checkProcessBombs } from "./process-bombs.js";
import { NO_STDIN, type StdinInfo } from "./context.js";
import { Findings } from "./findings.js";
import { FETCH_OR_DECODE, FETCHERS } from "./network.js";
import { markDownloaded } from "./path-arguments.js";
import { REDIRECT_TYPES, checkRedirect, outputTargets } from "./redirects.js";
import { countType, fieldChildren, namedChildren, type SyntaxNode } from "./syntax-node.js";
import {
  EMPTY_STAGE,
  argvContext,
  wordScope,
  type Stage,
  type WalkHooks,
  type WalkScope,
} from "./walk-scope.js";
import { evaluateWord } from "./words.js";

const STATEMENTS = new Set([
  "command",
  "redirected_statement",
  "pipeline",
  "list",
  "subshell",
  "compound_statement",
  "negated_command",
  "function_definition",
  "if_statement",
  "while_statement",
  "for_statement",
  "c_style_for_statement",
  "case_statement",
  "variable_assignment",
  "variable_assignments",
  "declaration_command",
  "unset_command",
  "test_command",
]);
const SUBSTITUTIONS = new Set(["command_substitution", "process_substitution"]);
const ARITHMETIC = new Set([
  "arithmetic_expansion",
  "subscript",
  "test_command",
  "c_style_for_statement",
  "compound_statement",
]);
const CONSTRUCTS: ReadonlyMap<string, string> = new Map([
  ["subshell", "runs commands in a subshell `( … )`"],
  ["compound_statement", "groups commands in `{ … }` or `(( … ))`"],
  ["negated_command", "negates a command with `!`"],
  ["if_statement", "uses an `if` statement"],
  ["while_statement", "uses a loop"],
  ["for_statement", "uses a loop"],
  ["c_style_for_statement", "uses a loop"],
  ["case_statement", "uses a `case` statement"],
  ["declaration_command", "declares shell variables"],
  ["unset_command", "unsets shell variables"],
  ["test_command", "uses a shell test `[[ … ]]`"],
]);

function visitNode(node: SyntaxNode, scope: WalkScope): void {
  if (SUBSTITUTIONS.has(node.type)) {
    scope.findings.confirm(
      `The command runs a substitution (\`${node.text}\`); it needs confirmation.`,
    );
    const inner: WalkScope = { ...scope, env: new Map(scope.env) };
    // `>(cmd)` feeds cmd whatever the outer command writes there.
    const stdin: StdinInfo = node.text.startsWith(">(")
      ? { kind: "pipe", upstream: ["process substitution"], text: null, computed: true }
      : NO_STDIN;
    for (const statement of namedChildren(node)) visitStatement(statement, inner, stdin);
  } else if (STATEMENTS.has(node.type)) {
    visitStatement(node, scope, NO_STDIN);
  } else {
    if (ARITHMETIC.has(node.type)) checkArithmeticNode(node, scope.env, scope.findings);
    if (node.type === "subscript") checkSubscriptNode(node, scope.findings);
    if (node.type === "expansion") {
      checkExpansion(node, scope.env, scope.findings);
      checkHiddenSubstitutions(node, scope);
    }
    visitNested(node, scope);
  }
}

function visitNested(node: SyntaxNode, scope: WalkScope): void {
  for (const child of node.children) visitNode(child, scope);
}

const HOOKS: WalkHooks = { visitNested, visitNode, visitStatement };

function visitBlock(node: SyntaxNode, scope: WalkScope): void {
  if (node.children.some((child) => child.type === "&")) {
    scope.findings.confirm(
      `The command runs \`${node.text}\` in the background; it needs confirmation.`,
    );
  }
  if (ARITHMETIC.has(node.type)) checkArithmeticNode(node, scope.env, scope.findings);
  visitNested(node, scope);
}

function visitPipeline(node: SyntaxNode, scope: WalkScope, stdin: StdinInfo): Stage {
  const stages = namedChildren(node);
  if (stages.length > 1) {
    scope.findings.confirm(
      `The command pipes \`${stages[0]?.text ?? ""}\` into \`${stages[1]?.text ?? ""}\`; argv execution runs one program at a time, so it needs confirmation.`,
    );
  }
  let input = stdin;
  const upstream: string[] = [...stdin.upstream];
  for (const stage of stages) {
    const findings = new Findings();
    const result = visitStatement(stage, { ...scope, findings }, input);
    scope.findings.merge(findings);
    upstream.push(...findings.programs);
    input = {
      kind: "pipe",
      upstream: [...upstream],
      text: result.output,
      computed: input.computed || upstream.some((name) => FETCH_OR_DECODE.has(name)),
    };
  }
  return EMPTY_STAGE;
}

function visitLoop(node: SyntaxNode, scope: WalkScope): void {
  const variable = fieldChildren(node, "variable")[0]?.text;
  const values = fieldChildren(node, "value");
  values.forEach((value) => visitNode(value, scope));
  const guesses = values
    .flatMap((value) => evaluateWord(value, wordScope(scope)).guesses)
    .slice(0, 8);
  const body = fieldChildren(node, "body");
  for (const guess of guesses.length > 0 ? guesses : [""]) {
    if (variable !== undefined) scope.env.set(variable, guess);
    body.forEach((statement) => visitBlock(statement, scope));
  }
}

function visitStatement(node: SyntaxNode, scope: WalkScope, stdin: StdinInfo): Stage {
  switch (node.type) {
    case "command":
      return visitCommand(node, scope, stdin, HOOKS);
    case "redirected_statement": {
      let input = stdin;
      const redirects = node.children.filter((child) => REDIRECT_TYPES.has(child.type));
      for (const redirect of redirects) input = checkRedirect(redirect, scope, HOOKS) ?? input;
      const body = node.children.find((child) => child.field === "body");
      const findings = new Findings();
      const stage =
        body === undefined ? EMPTY_STAGE : visitStatement(body, { ...scope, findings }, input);
      scope.findings.merge(findings);
      // `curl URL > x.sh` downloads x.sh: running it later in the script is download-and-execute.
      if (findings.programs.some((name) => FETCHERS.has(name))) {
        const ctx = argvContext(scope);
        for (const redirect of redirects)
          for (const file of outputTargets(redirect, scope)) markDownloaded(ctx, file);
      }
      return { output: stage.output, argv: null };
    }
    case "pipeline":
      return visitPipeline(node, scope, stdin);
    case "list":
      scope.findings.confirm(
        `The command chains commands with \`&&\` or \`||\` (\`${node.text}\`); argv execution runs one program at a time, so it needs confirmation.`,
      );
      namedChildren(node).forEach((child) => visitStatement(child, scope, stdin));
      return EMPTY_STAGE;
    case "variable_assignment": {
      scope.findings.confirm(
        `The command assigns a shell variable (\`${node.text}\`); it needs confirmation.`,
      );
      const { name, value } = visitAssignment(node, scope, HOOKS);
      scope.env.set(name, value);
      return EMPTY_STAGE;
    }
    case "function_definition": {
      const name = fieldChildren(node, "name")[0]?.text ?? "";
      scope.findings.confirm(
        `The command defines the shell function \`${name}\`; it needs confirmation.`,
      );
      if (name === "command_not_found_handle")
        scope.findings.block(
          refused(
            name,
            "is a hook bash runs for every unknown command, code that runs unseen later",
          ),
        );
      visitBlock(node, scope);
      return EMPTY_STAGE;
    }
    case "for_statement":
      scope.findings.confirm("The command uses a loop; it needs confirmation.");
      visitLoop(node, scope);
      return EMPTY_STAGE;
    case "declaration_command":
    case "unset_command":
      visitDeclaration(node, scope);
      visitBlock(node, scope);
      return EMPTY_STAGE;
    default: {
      const construct = CONSTRUCTS.get(node.type);
      scope.findings.confirm(
        construct !== undefined
          ? `The command ${construct}; it needs confirmation.`
          : `The command uses shell syntax this check does not know (${node.type}); it needs confirmation.`,
      );
      visitBlock(node, node.type === "subshell" ? { ...scope, env: new Map(scope.env) } : scope);
      return EMPTY_STAGE;
    }
  }
}

/** What walking a whole script found besides its findings. */
export interface ScriptSummary {
  /** Simple commands in the script. */
  readonly segments: number;
  /** The argv when the script is exactly one simple command of plain words, else null. */
  readonly argv: readonly string[] | null;
}

/**
 * Walks the syntax tree of a whole script: every statement, substitution, redirect,
 * assignment, loop and function, in order, with the variables it assigns.
 */
export function walkScript(root: SyntaxNode, scope: WalkScope): ScriptSummary {
  const statements = namedChildren(root);
  if (statements.length > 1) {
    scope.findings.confirm(
      `The command runs ${String(statements.length)} commands in sequence; argv execution runs one program at a time, so it needs confirmation.`,
    );
  }
  const background = root.children.some((child) => child.type === "&");
  if (background)
    scope.findings.confirm("The command runs in the background; it needs confirmation.");
  checkProcessBombs(root, scope.findings);
  let argv: readonly string[] | null = null;
  for (const statement of statements) argv = visitStatement(statement, scope, NO_STDIN).argv;
  const single = statements.length === 1 && !background && statements[0]?.type === "command";
  return { segments: countType(root, "command"), argv: single ? argv : null };
}
