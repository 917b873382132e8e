import { braceExpand } from "./brace-expansion.js";
import { decodeEscapes, printedText, unescapeDoubleQuoted } from "./escapes.js";
import { evaluateParameter, type OperandText } from "./parameter-expansion.js";
import { namedChildren, type SyntaxNode } from "./syntax-node.js";
import { expandTildes } from "./tilde.js";

export { braceExpand } from "./brace-expansion.js";

/** Where a word's variables come from. */
export interface WordScope {
  /** The value of a variable, if the script assigned it or it is well known. */
  lookup(name: string): string | undefined;
  /** The home directory `~` and `$HOME` stand for. */
  readonly home: string;
  /** The directory stack (`dirs` order, the current directory first), for `~+N` and `~-N`. */
  directories(): readonly string[];
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
  /** Part of the value comes from an expansion the check cannot know. */
  readonly unknown: boolean;
  /** All of the value comes from such expansions (`"$x"`, `$(cmd)`). */
  readonly opaque: boolean;
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
  /** Some of the text stands for a value the check cannot know. */
  readonly unknown: boolean;
  /** All of it does. */
  readonly opaque: boolean;
  readonly note: string | null;
}

const LITERAL: Omit<Part, "text"> = {
  exact: true,
  plain: true,
  glob: false,
  brace: false,
  substituted: false,
  splits: false,
  unknown: false,
  opaque: false,
  note: null,
};

/** Where a word part sits: tilde prefixes depend on it. */
interface Position {
  /** The part starts the word. */
  readonly first: boolean;
  /** Nothing follows the part in the word. */
  readonly last: boolean;
  /** The word is an assignment value (tildes after `:` expand too). */
  readonly assignment: boolean;
}

const INSIDE: Position = { first: false, last: false, assignment: false };

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
    unknown: parts.some((part) => part.unknown),
    opaque:
      parts.some((part) => part.opaque) &&
      parts.every((part) => part.opaque || (part.text === "" && !part.unknown)),
    note: parts.find((part) => part.note !== null)?.note ?? null,
  };
}

function unquotedWord(raw: string, position: Position, scope: WordScope): Part {
  const tilde = raw.includes("~")
    ? expandTildes(raw, scope, position)
    : { text: raw, expanded: false, unknown: false };
  const source = tilde.text;
  let text = "";
  let glob = false;
  for (let i = 0; i < source.length; i++) {
    const c = source.charAt(i);
    if (c === "\\") {
      const next = source.charAt(i + 1);
      if (next !== "\n") text += next === "" ? "\\" : next;
      i += 1;
      continue;
    }
    if (c === "*" || c === "?" || c === "[") glob = true;
    text += c;
  }
  const brace = BRACE.test(raw);
  const note = tilde.expanded
    ? `\`${raw}\` expands to a directory (tilde expansion)`
    : brace
      ? `\`${raw}\` is a brace expansion`
      : glob
        ? `\`${raw}\` is a glob pattern the shell expands`
        : null;
  const fixed = note === null;
  return { ...LITERAL, text, exact: fixed, plain: fixed, glob, brace, unknown: tilde.unknown };
}

/** An operand inside `${…}` (pattern, replacement, default), evaluated. */
function operandText(node: SyntaxNode, scope: WordScope): OperandText {
  if (node.type === "regex") return { text: node.text, quoted: false, known: true };
  const evaluated = part(node, scope, true, INSIDE);
  const quoted = ["string", "raw_string", "ansi_c_string", "translated_string"].includes(node.type);
  return { text: evaluated.text, quoted, known: !evaluated.unknown };
}

function expansionPart(node: SyntaxNode, scope: WordScope, quoted: boolean): Part {
  const evaluated = evaluateParameter(node, {
    lookup: (name) => scope.lookup(name),
    operand: (child) => operandText(child, scope),
  });
  const unknown = evaluated.value === undefined;
  // An unknown `${!x}` keeps its own text, so a rule can still see that a word was there.
  const guess = evaluated.indirect && unknown ? node.text : evaluated.guess;
  return {
    ...LITERAL,
    text: evaluated.value ?? guess,
    exact: false,
    plain: false,
    substituted: node.children.some((child) => child.type === "command_substitution"),
    // "$@" expands to one word per positional parameter even inside quotes.
    splits: !quoted || evaluated.name === "@",
    unknown,
    opaque: unknown,
    note: `\`${node.text}\` is expanded by the shell`,
  };
}

function simpleExpansionPart(node: SyntaxNode, scope: WordScope, quoted: boolean): Part {
  const name = node.children.find((child) => child.named)?.text ?? "";
  const value = scope.lookup(name);
  return {
    ...LITERAL,
    text: value ?? "",
    exact: false,
    plain: false,
    splits: !quoted || name === "@",
    unknown: value === undefined,
    opaque: value === undefined,
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
 * piped through `base64 -d` or `rev` (decode-into-command tricks); null when unknown.
 */
function substitutionOutput(node: SyntaxNode, scope: WordScope): string | null {
  const body = namedChildren(node);
  const only = body[0];
  if (body.length !== 1 || only === undefined) return null;
  const stages = only.type === "pipeline" ? namedChildren(only) : [only];
  if (!stages.every((stage) => stage.type === "command")) return null;
  const [first = [], ...filters] = stages.map((stage) => commandArgv(stage, scope));
  const directory = first[0] === "pwd" && first.length === 1 ? (scope.lookup("PWD") ?? null) : null;
  let text = printedText(first) ?? locatedProgram(first) ?? directory;
  for (const argv of filters) text = text === null ? null : filtered(argv, text);
  return text;
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
        : part(child, scope, true, INSIDE),
    );
  }
  return combine(parts);
}

function part(node: SyntaxNode, scope: WordScope, quoted: boolean, position: Position): Part {
  switch (node.type) {
    case "word":
      return quoted ? { ...LITERAL, text: node.text } : unquotedWord(node.text, position, scope);
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
      const last = node.children.length - 1;
      const whole = combine(
        node.children.map((child, index) =>
          part(child, scope, quoted, {
            first: position.first && index === 0,
            last: position.last && index === last,
            assignment:
              position.assignment || (position.first && /^[A-Za-z_]\w*\+?=/.test(node.text)),
          }),
        ),
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
      return simpleExpansionPart(node, scope, quoted);
    case "expansion":
      return expansionPart(node, scope, quoted);
    case "command_substitution": {
      const output = substitutionOutput(node, scope);
      return {
        ...LITERAL,
        text: output ?? "",
        exact: false,
        plain: false,
        substituted: true,
        splits: !quoted,
        unknown: output === null,
        opaque: output === null,
        note: `\`${node.text}\` runs a command substitution`,
      };
    }
    case "process_substitution":
      return {
        ...LITERAL,
        text: "/dev/fd/63",
        exact: false,
        plain: false,
        substituted: true,
        unknown: true,
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
        unknown: true,
        opaque: true,
        note: `\`${node.text}\` is an arithmetic expansion`,
      };
    default:
      return {
        ...LITERAL,
        text: node.text,
        exact: false,
        plain: false,
        unknown: true,
        note: `\`${node.text}\` uses shell syntax (${node.type}) that is not plain`,
      };
  }
}

/**
 * Evaluates one word node (an argument, a command name, a redirect target); with
 * `assignment`, an assignment value (`~` also expands after `:`).
 */
export function evaluateWord(
  node: SyntaxNode,
  scope: WordScope,
  options: { readonly assignment?: boolean } = {},
): WordInfo {
  const whole = part(node, scope, false, {
    first: true,
    last: true,
    assignment: options.assignment === true,
  });
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
    unknown: whole.unknown,
    opaque: whole.opaque,
    note: whole.plain ? null : (whole.note ?? `\`${node.text}\` is not a plain word`),
  };
}
