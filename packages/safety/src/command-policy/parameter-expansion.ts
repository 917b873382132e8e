import { PatternBudgetError, PatternSyntaxError } from "../patterns/pattern-node.js";
import {
  compileShellPattern,
  removePattern,
  replacePattern,
  type ShellPattern,
} from "../patterns/shell-pattern.js";
import { decodeEscapes } from "./escapes.js";
import type { SyntaxNode } from "./syntax-node.js";

/** One operand inside `${…}` (a pattern, a replacement, a default), evaluated. */
export interface OperandText {
  readonly text: string;
  /** Quoted: glob characters in it are literal when it is a pattern. */
  readonly quoted: boolean;
  /** The check knows its value. */
  readonly known: boolean;
}

/** What a `${…}` expansion evaluates to. */
export interface ParameterValue {
  /** The value, or undefined when the check cannot know it. */
  readonly value: string | undefined;
  /**
   * The best guess when the value is unknown: an unknown variable counts as unset
   * (`${DIR:-/}` is `/`, `${DIR}/` is `/`), so the rules see what an unset variable gives.
   */
  readonly guess: string;
  /** The variable whose value is used (`x` in `${x%/*}`), for reasons and indirection. */
  readonly name: string | undefined;
  /** `${!x}`: the value of the variable named by `$x`. */
  readonly indirect: boolean;
  /** The `@` transformation letter (`P` in `${x@P}`), if any. */
  readonly transformation: string | undefined;
}

/** How the evaluation looks up variables and evaluates operand nodes. */
export interface ExpansionScope {
  lookup(name: string): string | undefined;
  operand(node: SyntaxNode): OperandText;
}

/** Longer values are not pattern-matched: the result is unknown. */
const MAX_MATCHED_LENGTH = 512;
/**
 * Steps one expansion's pattern matching may take (linear matching, every start of a
 * 512-character value); past it the value is unknown, which the rules treat with caution.
 */
const MATCH_BUDGET = 2_000_000;

const NAME_TYPES = new Set(["variable_name", "special_variable_name", "subscript"]);
const DEFAULTING = new Set([":-", "-", ":=", "="]);
const ALTERNATE = new Set([":+", "+"]);
const ERROR_IF_UNSET = new Set([":?", "?"]);
const REMOVAL = new Set(["#", "##", "%", "%%"]);
const REPLACEMENT = new Set(["/", "//", "/#", "/%"]);
const CASE = new Set(["^", "^^", ",", ",,"]);

function changeCase(value: string, operator: string, pattern: ShellPattern | null): string {
  const matches = (c: string) => pattern === null || pattern.matches(c);
  const convert = (c: string) =>
    matches(c) ? (operator.startsWith("^") ? c.toUpperCase() : c.toLowerCase()) : c;
  if (operator.length === 2) return [...value].map(convert).join("");
  return value === "" ? value : convert(value.charAt(0)) + value.slice(1);
}

/** Tokens of `${x:offset:length}` arithmetic: integers, names, + - * / % and parentheses. */
function tokens(text: string): string[] | null {
  const list = text.match(/\d+|[A-Za-z_][A-Za-z0-9_]*|[-+*/%()]|\S/g) ?? [];
  return list.every((token) => /^(?:\d+|[A-Za-z_][A-Za-z0-9_]*|[-+*/%()])$/.test(token))
    ? list
    : null;
}

/** A small arithmetic evaluator for `${x:offset:length}`; null when it cannot be known. */
function arithmetic(text: string, lookup: (name: string) => string | undefined): number | null {
  const list = tokens(text.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, "$1"));
  if (list === null || list.length === 0) return null;
  let at = 0;
  const primary = (): number | null => {
    const token = list[at++];
    if (token === undefined) return null;
    if (token === "(") {
      const inner = sum();
      return list[at++] === ")" ? inner : null;
    }
    if (token === "-" || token === "+") {
      const operand = primary();
      return operand === null ? null : token === "-" ? -operand : operand;
    }
    if (/^\d+$/.test(token)) return Number(token);
    const value = lookup(token);
    return value !== undefined && /^\s*-?\d+\s*$/.test(value) ? Number(value) : null;
  };
  const product = (): number | null => {
    let left = primary();
    while (left !== null && ["*", "/", "%"].includes(list[at] ?? "")) {
      const operator = list[at++];
      const right = primary();
      if (right === null || (operator !== "*" && right === 0)) return null;
      left =
        operator === "*"
          ? left * right
          : operator === "/"
            ? Math.trunc(left / right)
            : left % right;
    }
    return left;
  };
  const sum = (): number | null => {
    let left = product();
    while (left !== null && ["+", "-"].includes(list[at] ?? "")) {
      const operator = list[at++];
      const right = product();
      if (right === null) return null;
      left = operator === "+" ? left + right : left - right;
    }
    return left;
  };
  const value = sum();
  return at === list.length && value !== null && Number.isSafeInteger(value) ? value : null;
}

function substring(
  value: string,
  offsetText: string,
  lengthText: string | null,
  lookup: (name: string) => string | undefined,
): string | undefined {
  const offset = offsetText.trim() === "" ? 0 : arithmetic(offsetText, lookup);
  const length = lengthText === null ? null : arithmetic(lengthText, lookup);
  if (offset === null || (lengthText !== null && length === null)) return undefined;
  const start = offset < 0 ? Math.max(0, value.length + offset) : offset;
  if (length === null) return value.slice(start);
  const end = length < 0 ? value.length + length : start + length;
  return end < start ? undefined : value.slice(start, end);
}

function transform(letter: string, name: string, value: string): string | undefined {
  switch (letter) {
    case "U":
      return value.toUpperCase();
    case "L":
      return value.toLowerCase();
    case "u":
      return value.charAt(0).toUpperCase() + value.slice(1);
    case "Q":
      return `'${value.replace(/'/g, "'\\''")}'`;
    case "E":
      return decodeEscapes(value);
    case "A":
      return `${name}='${value.replace(/'/g, "'\\''")}'`;
    default:
      // @P runs the value as a prompt string, @K/@k/@a describe arrays and attributes.
      return undefined;
  }
}

/**
 * Evaluates one `${…}` expansion node statically, as bash would: defaults and
 * alternatives, prefix and suffix removal (`${PWD%/x}`, `${HOME##*x}`), replacement,
 * case changes, substrings, lengths, `@` transformations and indirection (`${!x}`). The
 * value is undefined when the check cannot know it (an unknown variable, a pattern
 * computed at run time, `${x@P}`).
 */
export function evaluateParameter(node: SyntaxNode, scope: ExpansionScope): ParameterValue {
  const body = node.children.filter((child) => child.type !== "${" && child.type !== "}");
  const nameIndex = body.findIndex((child) => NAME_TYPES.has(child.type));
  const nameNode = body[nameIndex];
  const prefix = nameIndex === -1 ? [] : body.slice(0, nameIndex).map((child) => child.type);
  const rest = nameIndex === -1 ? [] : body.slice(nameIndex + 1);
  const indirect = prefix.includes("!");
  const base =
    nameNode?.type === "subscript"
      ? nameNode.children.find((child) => child.type === "variable_name")?.text
      : nameNode?.text;
  const at = rest.findIndex((child) => child.type === "@" && child.field === "operator");
  const transformation = at === -1 ? undefined : rest[at + 1]?.text;
  const result = (value: string | undefined, guess = value ?? ""): ParameterValue => ({
    value,
    guess,
    name: base,
    indirect,
    transformation,
  });
  if (nameNode === undefined) {
    // `${#}`, `${!}`, `${$}`: special parameters spelled with operator characters.
    const text = body.map((child) => child.text).join("");
    return result(/^[#!$?*@-]$/.test(text) ? scope.lookup(text) : undefined);
  }
  if (base === undefined) return result(undefined);
  let value = scope.lookup(base);
  if (indirect) {
    if (rest.length > 0) return result(undefined);
    value =
      value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(value)
        ? scope.lookup(value)
        : undefined;
    return result(value);
  }
  if (prefix.includes("#")) return result(value === undefined ? undefined : String(value.length));
  const operator = rest.find((child) => !child.named)?.type;
  const operands = rest.filter((child) => child.named);
  if (operator === undefined) return result(value);
  if (DEFAULTING.has(operator) || ALTERNATE.has(operator) || ERROR_IF_UNSET.has(operator)) {
    const texts = operands.map((child) => scope.operand(child));
    const operand = texts.map((part) => part.text).join("");
    const operandKnown = texts.every((part) => part.known);
    if (value === undefined) {
      // Unknown: guessed unset, as everywhere else.
      const guess = DEFAULTING.has(operator) || ALTERNATE.has(operator) ? operand : "";
      return result(undefined, ALTERNATE.has(operator) ? "" : guess);
    }
    const empty = operator.startsWith(":") && value === "";
    if (DEFAULTING.has(operator) && empty)
      return result(operandKnown ? operand : undefined, operand);
    if (ALTERNATE.has(operator))
      return empty ? result("") : result(operandKnown ? operand : undefined, operand);
    return result(value);
  }
  if (value === undefined) return result(undefined);
  if (operator === "@") return result(transform(transformation ?? "", base, value));
  if (operator === ":") {
    const separators = rest.filter((child) => child.type === ":");
    const second = separators[1] === undefined ? -1 : rest.indexOf(separators[1]);
    const offset = rest.slice(
      rest.indexOf(separators[0] as SyntaxNode) + 1,
      second === -1 ? undefined : second,
    );
    const length = second === -1 ? null : rest.slice(second + 1);
    return result(
      substring(
        value,
        offset.map((child) => child.text).join(""),
        length === null ? null : length.map((child) => child.text).join(""),
        scope.lookup,
      ),
    );
  }
  if (value.length > MAX_MATCHED_LENGTH) return result(undefined);
  if (REMOVAL.has(operator) || REPLACEMENT.has(operator) || CASE.has(operator)) {
    const slash = REPLACEMENT.has(operator)
      ? rest.findIndex((child, index) => index > 0 && child.type === "/")
      : -1;
    const patternNodes = rest
      .slice(1, slash === -1 ? undefined : slash)
      .filter((child) => child.named);
    const pattern = patternNodes.map((child) => scope.operand(child));
    const replacement =
      slash === -1
        ? []
        : rest
            .slice(slash + 1)
            .filter((child) => child.named)
            .map((child) => scope.operand(child));
    if (![...pattern, ...replacement].every((part) => part.known)) return result(undefined);
    try {
      const compiled = compileShellPattern(pattern, MATCH_BUDGET);
      if (REMOVAL.has(operator)) return result(removePattern(value, operator, compiled));
      if (CASE.has(operator))
        return result(changeCase(value, operator, pattern.length === 0 ? null : compiled));
      // An empty pattern replaces nothing, except anchored: `${x/#/-}` is `-` and the value.
      if (pattern.every((part) => part.text === "") && (operator === "/" || operator === "//"))
        return result(value);
      const text = replacement.map((part) => part.text).join("");
      return result(replacePattern(value, operator, compiled, text));
    } catch (error) {
      // A pattern bash would refuse, or one past the budget: the value is not known.
      if (error instanceof PatternSyntaxError || error instanceof PatternBudgetError)
        return result(undefined);
      throw error;
    }
  }
  return result(undefined);
}
