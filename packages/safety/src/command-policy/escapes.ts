const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

function readDigits(text: string, start: number, pattern: RegExp, max: number): string {
  let digits = "";
  while (digits.length < max && start + digits.length < text.length) {
    const next = text.charAt(start + digits.length);
    if (!pattern.test(next)) break;
    digits += next;
  }
  return digits;
}

function codePoint(value: number): string {
  return value <= 0x10ffff ? String.fromCodePoint(value) : "\ufffd";
}

/**
 * Decodes the backslash escapes of ANSI-C quoting (`$'\x72\x6d'`), which `printf` formats
 * and `echo -e` share: `\n`, `\xHH`, `\NNN` octal, `\uHHHH`, `\UHHHHHHHH`, `\cX`.
 */
export function decodeEscapes(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c !== "\\" || i + 1 >= text.length) {
      out += c;
      continue;
    }
    const next = text.charAt(i + 1);
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i += 1;
    } else if (next === "x" || next === "u" || next === "U") {
      const max = next === "x" ? 2 : next === "u" ? 4 : 8;
      const digits = readDigits(text, i + 2, /[0-9a-fA-F]/, max);
      out += digits === "" ? `\\${next}` : codePoint(parseInt(digits, 16));
      i += 1 + digits.length;
    } else if (/[0-7]/.test(next)) {
      const digits = readDigits(text, i + 1, /[0-7]/, 3);
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
      i += digits.length;
    } else if (next === "c" && i + 2 < text.length) {
      out += String.fromCharCode(text.charCodeAt(i + 2) & 0x1f);
      i += 2;
    } else {
      out += `\\${next}`;
      i += 1;
    }
  }
  return out;
}

/** Removes the escapes that stay special inside double quotes: `\$ \` \" \\` and backslash-newline. */
export function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_match, escaped: string) =>
    escaped === "\n" ? "" : escaped,
  );
}

/**
 * What `echo` or `printf` with these literal arguments prints (trailing newlines removed, as
 * command substitution does), or null for any other program.
 */
export function printedText(argv: readonly string[]): string | null {
  const name = (argv[0] ?? "").split("/").pop();
  if (name === "echo") {
    let index = 1;
    let escapes = false;
    while (/^-[neE]+$/.test(argv[index] ?? "")) {
      if ((argv[index] ?? "").includes("e")) escapes = true;
      index += 1;
    }
    const text = argv.slice(index).join(" ");
    return (escapes ? decodeEscapes(text) : text).replace(/\n+$/, "");
  }
  if (name === "printf") {
    const format = argv[1];
    if (format === undefined) return null;
    const values = argv.slice(2);
    let next = 0;
    const text = decodeEscapes(format).replace(/%([%sbdqc])/g, (_match, kind: string) =>
      kind === "%" ? "%" : (values[next++] ?? ""),
    );
    return text.replace(/\n+$/, "");
  }
  return null;
}
