/**
 * A reader of git's configuration file syntax (git-config(1), "CONFIGURATION FILE"):
 * `[section]`, `[section "subsection"]`, the older `[section.subsection]`, `name = value`,
 * a bare `name` (true), `#` and `;` comments, double quotes, the escapes `\\ \" \n \t \b`
 * and a backslash at the end of a line continuing the value. Strict: a line git would
 * reject throws, so a caller that cannot read the configuration can protect conservatively.
 */

/** One variable of a configuration file. Section and name are lower case (git ignores their case). */
export interface GitConfigEntry {
  readonly section: string;
  /** Case kept, as git keeps it; undefined when the section has none. */
  readonly subsection: string | undefined;
  readonly name: string;
  /** The value after quotes and escapes; `undefined` for a bare `name` (boolean true). */
  readonly value: string | undefined;
  /** 1-based line where the variable starts. */
  readonly line: number;
}

/** Thrown for text git would refuse. */
export class GitConfigSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${String(line)}: ${message}`);
    this.name = "GitConfigSyntaxError";
  }
}

const SECTION_NAME = /^[A-Za-z0-9.-]+$/;
const VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9-]*/;

/** Parses `text` (one configuration file) into its variables, in order. */
export function parseGitConfig(text: string): GitConfigEntry[] {
  const entries: GitConfigEntry[] = [];
  let section: string | undefined;
  let subsection: string | undefined;
  let position = text.startsWith("\uFEFF") ? 1 : 0;
  let line = 1;

  const peek = () => text[position];
  const fail = (message: string): never => {
    throw new GitConfigSyntaxError(message, line);
  };
  const skipBlanks = () => {
    while (peek() === " " || peek() === "\t" || peek() === "\r") position++;
  };
  const skipComment = () => {
    while (position < text.length && peek() !== "\n") position++;
  };

  const readHeader = () => {
    position++; // [
    const close = text.indexOf("]", position);
    const newline = text.indexOf("\n", position);
    if (
      close < 0 ||
      (newline >= 0 && newline < close && !text.slice(position, close).includes('"'))
    )
      fail("a section header is not closed");
    let header = "";
    while (
      position < text.length &&
      peek() !== "]" &&
      peek() !== '"' &&
      peek() !== " " &&
      peek() !== "\t"
    ) {
      header += peek();
      position++;
    }
    skipBlanks();
    subsection = undefined;
    if (peek() === '"') {
      position++;
      let sub = "";
      for (;;) {
        const character = peek();
        if (character === undefined || character === "\n") fail("a subsection name is not closed");
        position++;
        if (character === '"') break;
        if (character === "\\") {
          const escaped = peek();
          if (escaped === undefined || escaped === "\n") fail("a subsection name is not closed");
          sub += escaped;
          position++;
          continue;
        }
        sub += character;
      }
      subsection = sub;
      skipBlanks();
    }
    if (peek() !== "]") fail("a section header is malformed");
    position++;
    if (!SECTION_NAME.test(header)) fail(`'${header}' is not a section name`);
    if (subsection === undefined && header.includes(".")) {
      // [section.subsection], the older form: the subsection is lower-cased by git.
      const dot = header.indexOf(".");
      subsection = header.slice(dot + 1).toLowerCase();
      header = header.slice(0, dot);
    }
    section = header.toLowerCase();
  };

  const readValue = (): string => {
    let value = "";
    let quoted = false;
    // Whitespace is kept only between other characters; trailing unquoted blanks go.
    let pendingBlanks = "";
    for (;;) {
      const character = peek();
      if (character === undefined) break;
      if (character === "\n") {
        if (quoted) fail("a quoted value is not closed");
        break;
      }
      position++;
      if (!quoted && (character === "#" || character === ";")) {
        skipComment();
        break;
      }
      if (!quoted && (character === " " || character === "\t" || character === "\r")) {
        if (value !== "" || pendingBlanks !== "")
          pendingBlanks += character === "\r" ? "" : character;
        continue;
      }
      if (character === "\\") {
        const escaped = peek();
        position++;
        if (escaped === "\n") {
          line++;
          continue;
        }
        if (escaped === "\r" && peek() === "\n") {
          position++;
          line++;
          continue;
        }
        const mapped = { "\\": "\\", '"': '"', n: "\n", t: "\t", b: "\b" }[escaped ?? ""];
        if (mapped === undefined) fail(`'\\${escaped ?? ""}' is not an escape git knows`);
        value += pendingBlanks + mapped;
        pendingBlanks = "";
        continue;
      }
      if (character === '"') {
        quoted = !quoted;
        value += pendingBlanks;
        pendingBlanks = "";
        continue;
      }
      value += pendingBlanks + character;
      pendingBlanks = "";
    }
    if (quoted) fail("a quoted value is not closed");
    return value;
  };

  while (position < text.length) {
    skipBlanks();
    const character = peek();
    if (character === undefined) break;
    if (character === "\n") {
      position++;
      line++;
      continue;
    }
    if (character === "#" || character === ";") {
      skipComment();
      continue;
    }
    if (character === "[") {
      readHeader();
      continue;
    }
    const match = VARIABLE_NAME.exec(text.slice(position, position + 256));
    if (match === null) fail("a line is neither a section, a variable nor a comment");
    const name = (match as RegExpExecArray)[0].toLowerCase();
    const start = line;
    position += (match as RegExpExecArray)[0].length;
    skipBlanks();
    let value: string | undefined;
    if (peek() === "=") {
      position++;
      skipBlanks();
      value = readValue();
    } else if (peek() === "#" || peek() === ";") {
      skipComment();
    } else if (peek() !== "\n" && peek() !== undefined) {
      fail(`'${name}' is followed by something other than '='`);
    }
    // git accepts a variable before any section, with an empty section name.
    entries.push({ section: section ?? "", subsection, name, value, line: start });
  }
  return entries;
}
