import type { SyntaxNode } from "./syntax-node.js";

/**
 * What a word may know about variables: the values the script assigned literally (null for
 * one it assigned something computed), and the home directory `~` and `$HOME` stand for.
 */
export interface WordScope {
  readonly vars: ReadonlyMap<string, string | null>;
  readonly home: string;
  /** The word is an assignment's value, where `~` after a `:` expands too. */
  readonly assignment?: boolean;
}

/** One shell word, evaluated statically. */
export interface WordInfo {
  /** The source text. */
  readonly raw: string;
  /**
   * The value bash gives the word, or null when the shell computes it (a substitution, a
   * variable the script did not assign literally, a glob, a brace): the sandbox judges it.
   */
  readonly value: string | null;
  /** Spelled only with literal text, plain quotes and backslashes (the second lexer checks it). */
  readonly plain: boolean;
  /** Why the word is not plain; null when it is. */
  readonly note: string | null;
}

interface Part {
  readonly text: string | null;
  readonly plain: boolean;
  readonly note: string | null;
}

/** The simple escapes of `$'…'` and what they stand for, position by position. */
const ANSI_C_ESCAPES = "abeEfnrtv\\'\"?";
const ANSI_C_VALUES = "\x07\b\x1b\x1b\f\n\r\t\v\\'\"?";
const BRACE = /\{[^{}]*(?:,|\.\.)[^{}]*\}/;

/** Decodes `$'…'` text: simple escapes, `\xHH`, `\NNN`; null for any other escape (`\u`, `\c`). */
function decodeAnsiC(text: string): string | null {
  let known = true;
  const decoded = text.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|[^])/g, (_all, escape: string) => {
    if (escape.startsWith("x") && escape.length > 1)
      return String.fromCharCode(parseInt(escape.slice(1), 16));
    if (/^[0-7]/.test(escape)) return String.fromCharCode(parseInt(escape, 8) & 0xff);
    const at = ANSI_C_ESCAPES.indexOf(escape);
    if (at === -1) known = false;
    return ANSI_C_VALUES.charAt(at);
  });
  // Bash ends the string at a NUL.
  return known ? (decoded.split("\0")[0] ?? "") : null;
}

const literal = (text: string): Part => ({ text, plain: true, note: null });
const unknown = (note: string): Part => ({ text: null, plain: false, note });

function lookup(name: string, scope: WordScope): string | null {
  if (scope.vars.has(name)) return scope.vars.get(name) ?? null;
  return name === "HOME" ? scope.home : null;
}

/** An unquoted expansion with this value: the shell splits it and expands globs in it. */
function expanded(node: SyntaxNode, value: string | null, quoted: boolean, scope: WordScope): Part {
  const note = `\`${node.text}\` is expanded by the shell`;
  const splits = !quoted && (scope.vars.has("IFS") || value === "" || /[\s*?[]/.test(value ?? ""));
  return value === null || splits ? unknown(note) : { text: value, plain: false, note };
}

function unquotedWord(raw: string, first: boolean, alone: boolean, scope: WordScope): Part {
  if (BRACE.test(raw)) return unknown(`\`${raw}\` is a brace expansion`);
  let source = raw;
  let note: string | null = null;
  if (first && raw.startsWith("~")) {
    // `~` and `~/…` are the home directory; `~user`, `~+`, `~-` and the rest are not followed.
    const home = lookup("HOME", scope);
    if (!/^~(?:\/|$)/.test(raw) || (raw === "~" && !alone) || home === null)
      return unknown(`\`${raw}\` is a tilde expansion`);
    source = home.replace(/[\\*?[]/g, "\\$&") + raw.slice(1);
    note = `\`${raw}\` expands to the home directory`;
  }
  if (scope.assignment === true && raw.includes(":~"))
    return unknown(`\`${raw}\` has a tilde expansion`);
  let text = "";
  for (let i = 0; i < source.length; i++) {
    const c = source.charAt(i);
    if (c === "\\") {
      const next = source.charAt(++i);
      text += next === "" ? "\\" : next === "\n" ? "" : next;
    } else if (c === "*" || c === "?" || c === "[") {
      return unknown(`\`${raw}\` is a glob pattern the shell expands`);
    } else text += c;
  }
  return { text, plain: note === null, note };
}

function stringPart(node: SyntaxNode, scope: WordScope): Part {
  const parts: Part[] = [];
  let offset = 1;
  const content = (text: string) =>
    literal(text.replace(/\\([$`"\\\n])/g, (_all, c: string) => (c === "\n" ? "" : c)));
  for (const child of node.children) {
    const at = child.start - node.start;
    // Text between children (newlines, for one) belongs to the string too.
    if (at > offset) parts.push(content(node.text.slice(offset, at)));
    offset = Math.max(offset, at + child.text.length);
    if (child.type === '"') continue;
    parts.push(
      child.type === "string_content" || !child.named
        ? content(child.text)
        : part(child, scope, true, false, false),
    );
  }
  return combine(parts);
}

function combine(parts: readonly Part[]): Part {
  return {
    text: parts.every((p) => p.text !== null) ? parts.map((p) => p.text).join("") : null,
    plain: parts.every((p) => p.plain),
    note: parts.find((p) => p.note !== null)?.note ?? null,
  };
}

function part(
  node: SyntaxNode,
  scope: WordScope,
  quoted: boolean,
  first: boolean,
  alone: boolean,
): Part {
  switch (node.type) {
    case "word":
      return quoted ? literal(node.text) : unquotedWord(node.text, first, alone, scope);
    case "number":
    case "variable_name":
      return literal(node.text);
    case "raw_string":
      return literal(node.text.slice(1, -1));
    case "string":
      return stringPart(node, scope);
    case "ansi_c_string": {
      const text = decodeAnsiC(node.text.slice(2, -1));
      return { text, plain: false, note: `\`${node.text}\` uses ANSI-C quoting` };
    }
    case "simple_expansion": {
      const name = node.children.find((child) => child.named)?.text ?? "";
      return expanded(node, lookup(name, scope), quoted, scope);
    }
    case "expansion": {
      // Only `${NAME}`: every operator (defaults, patterns, indirection) is the shell's.
      const body = node.children.filter((child) => child.type !== "${" && child.type !== "}");
      const name = body.length === 1 && body[0]?.type === "variable_name" ? body[0].text : null;
      return expanded(node, name === null ? null : lookup(name, scope), quoted, scope);
    }
    case "concatenation": {
      const unquoted = node.children.map((c) => (c.type === "word" ? c.text : "\0")).join("");
      if (!quoted && BRACE.test(unquoted)) return unknown(`\`${node.text}\` is a brace expansion`);
      return combine(
        node.children.map((child, index) =>
          part(child, scope, quoted, first && index === 0, false),
        ),
      );
    }
    default:
      return unknown(`\`${node.text.slice(0, 60)}\` is computed by the shell (${node.type})`);
  }
}

/**
 * Evaluates one word node (an argument, a command name, a redirect target, an assignment's
 * value) as far as it is known: literal text, quotes and escapes, `$'…'`, `~` and `~/…`,
 * `$HOME`, and variables the script assigned literally. Anything else is unknown (null).
 */
export function evaluateWord(node: SyntaxNode, scope: WordScope): WordInfo {
  const whole = part(node, scope, false, true, true);
  const plain = whole.plain && whole.text !== null;
  return {
    raw: node.text,
    value: whole.text,
    plain,
    note: plain ? null : (whole.note ?? `\`${node.text}\` is not a plain word`),
  };
}
