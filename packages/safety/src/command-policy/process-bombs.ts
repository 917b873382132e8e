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

const COMPARISONS: Readonly<Record<string, (a: number, b: number) => boolean>> = {
  "-eq": (a, b) => a === b,
  "-ne": (a, b) => a !== b,
  "-lt": (a, b) => a < b,
  "-le": (a, b) => a <= b,
  "-gt": (a, b) => a > b,
  "-ge": (a, b) => a >= b,
  "==": (a, b) => a === b,
  "!=": (a, b) => a !== b,
  "<": (a, b) => a < b,
  "<=": (a, b) => a <= b,
  ">": (a, b) => a > b,
  ">=": (a, b) => a >= b,
};

const LITERAL_TEST =
  /^(?:\[\[?|test)\s+(['"]?)([\w.-]+)\1\s+(-eq|-ne|-lt|-le|-gt|-ge|==?|!=)\s+(['"]?)([\w.-]+)\4\s*(?:\]\]?)?$/;
const LITERAL_ARITHMETIC = /^\(\(\s*()(-?\d+)\s*(==|!=|<=?|>=?)\s*()(-?\d+)\s*\)\)$/;

/**
 * The truth of a condition made of literals only (`[ 1 -eq 1 ]`, `[[ a == a ]]`,
 * `test 2 -gt 1`, `(( 1 < 2 ))`, `! [ 1 = 2 ]`), or null when it depends on anything else.
 */
function constantTruth(condition: string): boolean | null {
  const negated = /^!\s+(.*)$/s.exec(condition);
  if (negated !== null) {
    const inner = constantTruth((negated[1] ?? "").trim());
    return inner === null ? null : !inner;
  }
  if (ALWAYS_TRUE.test(condition)) return true;
  if (ALWAYS_FALSE.test(condition)) return false;
  const arithmetic = LITERAL_ARITHMETIC.exec(condition);
  const test = arithmetic ?? LITERAL_TEST.exec(condition);
  if (test === null) return null;
  const [left = "", operator = "", right = ""] = [test[2], test[3], test[5]];
  const numbers = /^-?\d+$/.test(left) && /^-?\d+$/.test(right);
  if (arithmetic !== null || operator.startsWith("-"))
    return numbers ? (COMPARISONS[operator]?.(Number(left), Number(right)) ?? null) : null;
  return operator === "!=" ? left !== right : left === right;
}

/** How many times a `for x in …` loop runs, when the values show it (`{1..100000}`, `$(seq 1e5)`). */
function iterations(node: SyntaxNode): number {
  let total = 0;
  for (const value of fieldChildren(node, "value")) {
    const range = /\{(-?\d+)\.\.(-?\d+)(?:\.\.-?\d+)?\}/.exec(value.text);
    if (range !== null) total += Math.abs(Number(range[2]) - Number(range[1])) + 1;
    const seq = /\$\(\s*seq\s+(?:-?[\d.]+\s+){0,2}([\d.e+]+|inf\w*)\s*\)/i.exec(value.text);
    if (seq !== null) total += /^inf/i.test(seq[1] ?? "") ? Infinity : Number(seq[1]);
    total += 1;
  }
  return total;
}

/** A loop that starts this many background processes holds more than a machine allows. */
const MANY = 1000;

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
  const truth = constantTruth(condition);
  if (until) return truth === false;
  return truth === true || (endlessInput && /^read\b/.test(condition));
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
  // `seq 1000000` ends, but feeds more processes than any machine holds at once.
  if (name === "seq" && Number(/([\d.e+]+)\s*$/.exec(text)?.[1] ?? "0") >= 10_000) return true;
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
    const spawns = () => fieldChildren(node, "body").some(spawnsInBackground);
    if (isEndless(node, endlessInput) && spawns())
      findings.block(
        refused(node.text.slice(0, 80), "starts background processes in an endless loop"),
      );
    else if (node.type === "for_statement" && iterations(node) >= MANY && spawns())
      findings.block(
        refused(node.text.slice(0, 80), "starts thousands of background processes at once"),
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
