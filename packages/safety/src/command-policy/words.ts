import path from "node:path";
import { decodeEscapes, printedText, unescapeDoubleQuoted } from "./escapes.js";
import { namedChildren, type SyntaxNode } from "./syntax-node.js";

/** Where a word's variables come from. */
export interface WordScope {
  /** The value of a variable, if the script assigned it or it is well known. */
  lookup(name: string): string | undefined;
  /** The home directory `~` and `$HOME` stand for. */
  readonly home: string;
}

/** One shell word, evaluated statically. */
export interface WordInfo {
  /** The source text. */
  readonly raw: string;
  /**
   * The words the shell most likely produces from it: variables the script assigned (or
   * `HOME`, `IFS`) substituted, unknown ones empty, `echo`/`printf` substitutions printed,
   * unquoted expansions split, braces expanded. A guess for the denylist, never proof.
   */
  readonly guesses: readonly string[];
  /** The value is fixed: no expansion, substitution, glob, tilde or brace. */
  readonly exact: boolean;
  /** Exact and spelled only with literal text, plain quotes and backslashes. */
  readonly plain: boolean;
  /** Contains an unquoted glob character. */
  readonly glob: boolean;
  /** Contains a command or process substitution. */
  readonly substituted: boolean;
  /** Why the word is not plain; null when it is. */
  readonly note: string | null;
}

interface Part {
  readonly text: string;
  readonly exact: boolean;
  readonly plain: boolean;
  readonly glob: boolean;
  readonly brace: boolean;
  readonly substituted: boolean;
  /** An unquoted expansion: the shell splits its result into words. */
  readonly splits: boolean;
  readonly note: string | null;
}

const LITERAL: Omit<Part, "text"> = {
  exact: true,
  plain: true,
  glob: false,
  brace: false,
  substituted: false,
  splits: false,
  note: null,
};

const DEFAULTING = new Set([":-", "-", ":=", "="]);
const ALTERNATE = new Set([":+", "+"]);
const BRACE = /\{[^{}]*(?:,|\.\.)[^{}]*\}/;

function combine(parts: readonly Part[]): Part {
  return {
    text: parts.map((part) => part.text).join(""),
    exact: parts.every((part) => part.exact),
    plain: parts.every((part) => part.plain),
    glob: parts.some((part) => part.glob),
    brace: parts.some((part) => part.brace),
    substituted: parts.some((part) => part.substituted),
    splits: parts.some((part) => part.splits),
    note: parts.find((part) => part.note !== null)?.note ?? null,
  };
}

function homeOf(user: string, scope: WordScope): string {
  return user === "" ? scope.home : path.posix.join(path.posix.dirname(scope.home), user);
}

function unquotedWord(raw: string, first: boolean, scope: WordScope): Part {
  let text = "";
  let glob = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charAt(i);
    if (c === "\\") {
      const next = raw.charAt(i + 1);
      if (next !== "\n") text += next === "" ? "\\" : next;
      i += 1;
      continue;
    }
    if (c === "*" || c === "?" || c === "[") glob = true;
    text += c;
  }
  const tilde = first ? /^(?:[A-Za-z_][A-Za-z0-9_]*=)?~([A-Za-z0-9._-]*)(?=\/|$)/.exec(raw) : null;
  if (tilde !== null) {
    const prefix = raw.slice(0, raw.indexOf("~"));
    text = prefix + homeOf(tilde[1] ?? "", scope) + text.slice(tilde[0].length);
  }
  const brace = BRACE.test(raw);
  const note =
    tilde !== null
      ? `\`${raw}\` expands to a home directory`
      : brace
        ? `\`${raw}\` is a brace expansion`
        : glob
          ? `\`${raw}\` is a glob pattern the shell expands`
          : null;
  const fixed = note === null;
  return { ...LITERAL, text, exact: fixed, plain: fixed, glob, brace };
}

function expansionPart(node: SyntaxNode, scope: WordScope, quoted: boolean): Part {
  const children = node.children;
  const nameNode = children.find((child) =>
    ["variable_name", "special_variable_name", "subscript"].includes(child.type),
  );
  const indirect = children.some((child) => !child.named && child.type === "!");
  const name =
    nameNode?.type === "subscript"
      ? nameNode.children.find((child) => child.type === "variable_name")?.text
      : nameNode?.text;
  let value = name !== undefined && !indirect ? scope.lookup(name) : undefined;
  const opIndex = children.findIndex(
    (child) => !child.named && (DEFAULTING.has(child.type) || ALTERNATE.has(child.type)),
  );
  const operator = children[opIndex]?.type;
  if (operator !== undefined) {
    const operand = children
      .slice(opIndex + 1)
      .filter((child) => child.type !== "}")
      .map((child) => part(child, scope, true, false).text)
      .join("");
    const empty = value === undefined || (operator.startsWith(":") && value === "");
    if (DEFAULTING.has(operator) && empty) value = operand;
    if (ALTERNATE.has(operator)) value = empty ? "" : operand;
  }
  return {
    ...LITERAL,
    text: value ?? "",
    exact: false,
    plain: false,
    substituted: children.some((child) => child.type === "command_substitution"),
    // "$@" expands to one word per positional parameter even inside quotes.
    splits: !quoted || name === "@",
    note: `\`${node.text}\` is expanded by the shell`,
  };
}

function commandArgv(command: SyntaxNode, scope: WordScope): string[] {
  return command.children
    .filter((child) => child.field === "name" || child.field === "argument")
    .flatMap(
      (child) =>
        evaluateWord(child.type === "command_name" ? (child.children[0] ?? child) : child, scope)
          .guesses,
    );
}

/** What `which rm`, `command -v rm` or `type -P rm` prints: the program's path (`rm` here). */
function locatedProgram(argv: readonly string[]): string | null {
  const [name, ...args] = argv;
  const located = args.filter((arg) => !arg.startsWith("-")).pop();
  if (located === undefined) return null;
  if (name === "which") return located;
  if (name === "command" && args.some((arg) => arg === "-v" || arg === "-V")) return located;
  if (name === "type" && args.some((arg) => /^-[a-zA-Z]*[pP]/.test(arg))) return located;
  return null;
}

/** What `base64 -d` or `rev` makes of `text`, or null for any other filter. */
function filtered(argv: readonly string[], text: string): string | null {
  const name = argv[0]?.split("/").pop();
  if (name === "base64" && argv.some((arg) => /^-[a-zA-Z]*[dD]|^--decode$/.test(arg))) {
    return Buffer.from(text, "base64").toString("utf8").replace(/\n+$/, "");
  }
  if (name === "rev")
    return text
      .split("\n")
      .map((line) => [...line].reverse().join(""))
      .join("\n");
  return name === "cat" && argv.length === 1 ? text : null;
}

/**
 * What a command substitution prints, when it is `echo`/`printf` of literals, optionally
 * piped through `base64 -d` or `rev` (decode-into-command tricks); "" when unknown.
 */
function substitutionOutput(node: SyntaxNode, scope: WordScope): string {
  const body = namedChildren(node);
  const only = body[0];
  if (body.length !== 1 || only === undefined) return "";
  const stages = only.type === "pipeline" ? namedChildren(only) : [only];
  if (!stages.every((stage) => stage.type === "command")) return "";
  const [first = [], ...filters] = stages.map((stage) => commandArgv(stage, scope));
  let text = printedText(first) ?? locatedProgram(first);
  for (const argv of filters) text = text === null ? null : filtered(argv, text);
  return text ?? "";
}

function stringPart(node: SyntaxNode, scope: WordScope): Part {
  const parts: Part[] = [];
  let offset = 1;
  const literal = (text: string) => ({ ...LITERAL, text: unescapeDoubleQuoted(text) });
  for (const child of node.children) {
    const at = child.start - node.start;
    // Text between children (newlines, for one) belongs to the string too.
    if (at > offset) parts.push(literal(node.text.slice(offset, at)));
    offset = Math.max(offset, at + child.text.length);
    if (child.type === '"') continue;
    parts.push(
      child.type === "string_content" || !child.named
        ? literal(child.text)
        : part(child, scope, true, false),
    );
  }
  return combine(parts);
}

function part(node: SyntaxNode, scope: WordScope, quoted: boolean, first: boolean): Part {
  switch (node.type) {
    case "word":
      return quoted ? { ...LITERAL, text: node.text } : unquotedWord(node.text, first, scope);
    case "number":
    case "variable_name":
      return { ...LITERAL, text: node.text };
    case "raw_string":
      return { ...LITERAL, text: node.text.slice(1, -1) };
    case "string":
      return stringPart(node, scope);
    case "ansi_c_string":
      return {
        ...LITERAL,
        text: decodeEscapes(node.text.slice(2, -1)),
        plain: false,
        note: `\`${node.text}\` uses ANSI-C quoting`,
      };
    case "translated_string":
      return {
        ...stringPart(node, scope),
        plain: false,
        note: `\`${node.text}\` uses locale quoting`,
      };
    case "concatenation": {
      const whole = combine(
        node.children.map((child, index) => part(child, scope, quoted, first && index === 0)),
      );
      const unquoted = node.children
        .map((child) => (child.type === "word" ? child.text : "\0"))
        .join("");
      return quoted || !BRACE.test(unquoted)
        ? whole
        : {
            ...whole,
            exact: false,
            plain: false,
            brace: true,
            note: `\`${node.text}\` is a brace expansion`,
          };
    }
    case "simple_expansion":
    case "expansion":
      return expansionPart(node, scope, quoted);
    case "command_substitution":
      return {
        ...LITERAL,
        text: substitutionOutput(node, scope),
        exact: false,
        plain: false,
        substituted: true,
        splits: !quoted,
        note: `\`${node.text}\` runs a command substitution`,
      };
    case "process_substitution":
      return {
        ...LITERAL,
        text: "/dev/fd/63",
        exact: false,
        plain: false,
        substituted: true,
        note: `\`${node.text}\` runs a process substitution`,
      };
    case "brace_expression":
      return {
        ...LITERAL,
        text: node.text,
        exact: false,
        plain: false,
        brace: true,
        note: `\`${node.text}\` is a brace expansion`,
      };
    case "arithmetic_expansion":
      return {
        ...LITERAL,
        text: "0",
        exact: false,
        plain: false,
        splits: !quoted,
        note: `\`${node.text}\` is an arithmetic expansion`,
      };
    default:
      return {
        ...LITERAL,
        text: node.text,
        exact: false,
        plain: false,
        note: `\`${node.text}\` uses shell syntax (${node.type}) that is not plain`,
      };
  }
}

/**
 * Expands `{a,b}` and `{1..3}` the way bash does, for guesses only; at most `limit` words.
 */
export function braceExpand(text: string, limit = 64): string[] {
  const results: string[] = [];
  const pending = [text];
  for (let current = pending.shift(); current !== undefined; current = pending.shift()) {
    if (results.length + pending.length >= limit) {
      results.push(current);
      continue;
    }
    const expansion = firstBrace(current);
    if (expansion === null) results.push(current);
    else
      for (const alternative of expansion.alternatives)
        pending.push(expansion.prefix + alternative + expansion.suffix);
  }
  return results;
}

function sequence(body: string): string[] | null {
  const numbers = /^(-?\d{1,6})\.\.(-?\d{1,6})$/.exec(body);
  if (numbers === null) return null;
  const from = Number(numbers[1]);
  const to = Number(numbers[2]);
  const step = from <= to ? 1 : -1;
  const values: string[] = [];
  for (let value = from; values.length < 64; value += step) {
    values.push(String(value));
    if (value === to) break;
  }
  return values;
}

function firstBrace(
  text: string,
): { prefix: string; alternatives: string[]; suffix: string } | null {
  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    let depth = 0;
    let last = start;
    const alternatives: string[] = [];
    for (let i = start; i < text.length; i++) {
      const c = text.charAt(i);
      if (c === "{") depth += 1;
      else if (c === "," && depth === 1) {
        alternatives.push(text.slice(last + 1, i));
        last = i;
      } else if (c === "}" && --depth === 0) {
        const body = text.slice(start + 1, i);
        const listed =
          alternatives.length > 0 ? [...alternatives, text.slice(last + 1, i)] : sequence(body);
        if (listed !== null)
          return { prefix: text.slice(0, start), alternatives: listed, suffix: text.slice(i + 1) };
        break;
      }
    }
  }
  return null;
}

/** Evaluates one word node (an argument, a command name, a redirect target). */
export function evaluateWord(node: SyntaxNode, scope: WordScope): WordInfo {
  const whole = part(node, scope, false, true);
  let guesses = whole.brace ? braceExpand(whole.text) : [whole.text];
  if (whole.splits)
    guesses = guesses.flatMap((guess) => guess.split(/[ \t\n]+/).filter((piece) => piece !== ""));
  return {
    raw: node.text,
    guesses,
    exact: whole.exact,
    plain: whole.plain,
    glob: whole.glob,
    substituted: whole.substituted,
    note: whole.plain ? null : (whole.note ?? `\`${node.text}\` is not a plain word`),
  };
}
