import { refused } from "./denylist.js";
import type { Findings } from "./findings.js";
import { fieldChildren, namedChildren, type SyntaxNode } from "./syntax-node.js";

/**
 * Process bombs in shell syntax, found by their shape rather than their spelling:
 * - a function that reaches itself again (directly, or through other functions) through a
 *   fork: a pipeline, `&`, a subshell or a substitution (`:(){ :|:& };:`, `f(){ (f); }`,
 *   `a(){ b & }; b(){ a|a; }`, `"$FUNCNAME" | "$FUNCNAME" &`);
 * - an endless loop that starts background processes (`while :; do x & done`,
 *   `for ((;;)); do x & done`, `until false; do …& done`, `yes | while read; do …& done`);
 * - unbounded parallelism over endless input (`yes | xargs -P0 …`, `parallel -j0`).
 */

const FORKING = new Set(["subshell", "command_substitution", "process_substitution"]);
const SELF = /^"?\$\{?FUNCNAME(?:\[0\])?\}?"?$/;

interface Call {
  readonly callee: string;
  readonly forked: boolean;
}

/** Statements followed by `&` among `node`'s children: they run in the background. */
function backgrounded(node: SyntaxNode): Set<SyntaxNode> {
  const set = new Set<SyntaxNode>();
  node.children.forEach((child, index) => {
    if (child.type === "&" && index > 0) {
      const previous = node.children[index - 1];
      if (previous !== undefined) set.add(previous);
    }
  });
  return set;
}

function commandName(node: SyntaxNode): string {
  return node.children.find((child) => child.type === "command_name")?.text ?? "";
}

/** Calls of functions in `body`, with whether each runs in a forked process. */
function callsIn(body: SyntaxNode, self: string, functions: ReadonlySet<string>): Call[] {
  const calls: Call[] = [];
  const visit = (node: SyntaxNode, forked: boolean): void => {
    if (node.type === "function_definition") return;
    if (node.type === "command") {
      const name = commandName(node);
      const callee = SELF.test(name) ? self : name;
      if (functions.has(callee)) calls.push({ callee, forked });
    }
    const background = backgrounded(node);
    const pipeline = node.type === "pipeline" && namedChildren(node).length > 1;
    for (const child of node.children)
      visit(child, forked || pipeline || background.has(child) || FORKING.has(child.type));
  };
  // `f() ( f )`: a body in parentheses runs in a subshell on every call.
  visit(body, FORKING.has(body.type));
  return calls;
}

/** Names of functions that reach themselves again through at least one fork. */
function forkBombs(root: SyntaxNode): string[] {
  const definitions: SyntaxNode[] = [];
  const collect = (node: SyntaxNode): void => {
    if (node.type === "function_definition") definitions.push(node);
    node.children.forEach(collect);
  };
  collect(root);
  if (definitions.length === 0) return [];
  const names = new Set(definitions.map((node) => fieldChildren(node, "name")[0]?.text ?? ""));
  const graph = new Map<string, Call[]>();
  for (const definition of definitions) {
    const name = fieldChildren(definition, "name")[0]?.text ?? "";
    const body = fieldChildren(definition, "body")[0] ?? definition;
    graph.set(name, [...(graph.get(name) ?? []), ...callsIn(body, name, names)]);
  }
  return [...names].filter((start) => {
    const seen = new Set<string>();
    const pending: { name: string; forked: boolean }[] = [{ name: start, forked: false }];
    for (let state = pending.pop(); state !== undefined; state = pending.pop()) {
      for (const call of graph.get(state.name) ?? []) {
        const forked = state.forked || call.forked;
        if (call.callee === start && forked) return true;
        const key = `${call.callee}\u0000${String(forked)}`;
        if (!seen.has(key)) {
          seen.add(key);
          pending.push({ name: call.callee, forked });
        }
      }
    }
    return false;
  });
}

function conditionText(node: SyntaxNode): string {
  return fieldChildren(node, "condition")
    .filter((part) => part.named)
    .map((part) => part.text)
    .join(" ")
    .trim();
}

const ALWAYS_TRUE =
  /^(?:(?:\/usr)?(?:\/bin\/)?true|:|\[\s+[^\s\]]+\s+\]|\[\[\s+[^\s\]]+\s+\]\]|test\s+\S+|\(\(\s*[1-9]\d*\s*\)\)|!\s*(?:(?:\/usr)?(?:\/bin\/)?false)|sleep\s+[\d.]+[smhd]?)$/;
const ALWAYS_FALSE = /^(?:(?:\/usr)?(?:\/bin\/)?false|!\s*(?:true|:)|\(\(\s*0\s*\)\)|\[\s+\])$/;

/** Whether a loop never ends on its own (`while :`, `until false`, `for ((;;))`). */
function isEndless(node: SyntaxNode, endlessInput: boolean): boolean {
  if (node.type === "c_style_for_statement") {
    const parts = node.text.replace(/\bdo\b[\s\S]*$/, "").split(";");
    const condition = (parts[1] ?? "").trim();
    return condition === "" || /^[1-9]\d*$/.test(condition);
  }
  if (node.type !== "while_statement") return false;
  const condition = conditionText(node);
  const until = node.children.some((child) => child.type === "until");
  if (until) return ALWAYS_FALSE.test(condition);
  return ALWAYS_TRUE.test(condition) || (endlessInput && /^read\b/.test(condition));
}

function spawnsInBackground(node: SyntaxNode): boolean {
  if (node.children.some((child) => child.type === "&" || child.type === "coproc")) return true;
  return node.children.some(spawnsInBackground);
}

/** A pipeline stage that never stops writing (`yes`, `cat /dev/zero`, `seq inf`, `tail -f`). */
function isEndlessProducer(stage: SyntaxNode): boolean {
  if (stage.type === "while_statement" || stage.type === "c_style_for_statement")
    return isEndless(stage, false);
  const text = stage.text;
  if (stage.type === "redirected_statement" && /<\s*\/dev\/(?:zero|u?random)\b/.test(text))
    return true;
  if (stage.type !== "command") return false;
  const name = commandName(stage).split("/").pop() ?? "";
  if (name === "yes") return true;
  if (/\/dev\/(?:zero|u?random)\b/.test(text)) return true;
  if (name === "seq" && /\s[+]?inf(?:inity)?\b/i.test(text)) return true;
  if (name === "jot" && /\s(?:-r\s+)?0(?:\s|$)/.test(text)) return true;
  return name === "tail" && /\s-(?:[a-zA-Z]*[fF]|-follow)/.test(text);
}

/** `xargs -P0`, `--max-procs=0`, `-P 1000`, `parallel -j0`: no bound on processes at once. */
function isUnboundedParallel(stage: SyntaxNode): boolean {
  const text = ` ${stage.text} `;
  if (/\sxargs\s/.test(text) || /^\s*xargs\s/.test(text)) {
    const procs = /\s(?:-P\s*|--max-procs[=\s]\s*)(\d+)/.exec(text);
    return (
      (procs !== null && (procs[1] === "0" || Number(procs[1]) >= 1000)) ||
      /&(?!&)/.test(stage.text)
    );
  }
  if (/\sparallel\s/.test(text)) return /\s(?:-j\s*|--jobs[=\s]\s*)0\b/.test(text);
  return false;
}

/**
 * Finds process bombs anywhere in a script's syntax tree (see above) and blocks them.
 * A purely syntactic pass: it sees function definitions together, so recursion through
 * several functions counts.
 */
export function checkProcessBombs(root: SyntaxNode, findings: Findings): void {
  for (const name of forkBombs(root))
    findings.block(
      refused(
        `${name}()`,
        "is a fork bomb: the function keeps starting copies of itself in new processes",
      ),
    );
  const visit = (node: SyntaxNode, endlessInput: boolean): void => {
    if (isEndless(node, endlessInput) && fieldChildren(node, "body").some(spawnsInBackground))
      findings.block(
        refused(node.text.slice(0, 80), "starts background processes in an endless loop"),
      );
    if (node.type === "pipeline") {
      const stages = namedChildren(node);
      let endless = endlessInput;
      for (const stage of stages) {
        if (endless && isUnboundedParallel(stage))
          findings.block(
            refused(
              stage.text.slice(0, 80),
              "runs commands without a bound on parallel processes over endless input",
            ),
          );
        visit(stage, endless);
        endless = isEndlessProducer(stage) || (endless && !/^\s*head\b/.test(stage.text));
      }
      return;
    }
    for (const child of node.children) visit(child, false);
  };
  visit(root, false);
}
