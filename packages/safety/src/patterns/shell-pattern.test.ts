import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { codePoints } from "./automaton.js";
import { PatternBudgetError } from "./pattern-node.js";
import { compileShellPattern, removePattern, replacePattern } from "./shell-pattern.js";

const OPERATORS = ["#", "##", "%", "%%", "/", "//", "/#", "/%"] as const;
const VALUES = ["aXbXc", "/home/user/ws", "a.b.c.tar.gz", "", "ab*c", "xxx", "[a]b", "a-b_c"];
const PATTERNS = ["*X", "X*", "[ab]", "?", "*", "b*", "[!a]*", "\\*", "*.*", "[[:alpha:]]*"];
const MORE_PATTERNS = ["a", "*/", "/*", "x", "[a-c]", "[]a]", "*[.]", "?X?", "**", "[\\]]*"];

/** What ours gives for `${x<operator><pattern>}` (replacement `-` for the `/` forms). */
function ours(value: string, operator: string, pattern: string): string {
  const compiled = compileShellPattern([{ text: pattern, quoted: false }]);
  return operator.startsWith("/")
    ? replacePattern(value, operator, compiled, "-")
    : removePattern(value, operator, compiled);
}

describe("bash patterns, against bash itself", () => {
  it("removes prefixes and suffixes and replaces exactly as bash does", () => {
    const cases = VALUES.flatMap((value) =>
      [...PATTERNS, ...MORE_PATTERNS].flatMap((pattern) =>
        OPERATORS.map((operator) => ({ value, operator, pattern })),
      ),
    );
    // One bash run prints every case, NUL-separated; the pattern stays unquoted in ${...}.
    const script = cases
      .map(({ operator }, index) => {
        const body = operator.startsWith("/") ? `${operator}$p${index}/-` : `${operator}$p${index}`;
        return `printf '%s\\0' "\${v${index}${body}}"`;
      })
      .join("\n");
    const assignments = cases
      .map(({ value, pattern }, index) => `v${index}=${quote(value)}; p${index}=${quote(pattern)}`)
      .join("\n");
    const output = execFileSync("bash", ["-c", `${assignments}\n${script}`], {
      encoding: "utf8",
      env: { LC_ALL: "C", HOME: tmpdir(), PATH: process.env.PATH ?? "" },
    });
    const expected = output.split("\0").slice(0, -1);
    expect(expected).toHaveLength(cases.length);
    const differing = cases
      .map((entry, index) => ({
        ...entry,
        bash: expected[index],
        ours: ours(entry.value, entry.operator, entry.pattern),
      }))
      .filter((entry) => entry.bash !== entry.ours);
    expect(differing).toEqual([]);
  });

  it("keeps quoted parts literal", () => {
    const pattern = compileShellPattern([
      { text: "*", quoted: true },
      { text: "*", quoted: false },
    ]);
    expect(removePattern("*abc", "#", pattern)).toBe("abc");
    expect(removePattern("abc", "#", pattern)).toBe("abc");
    expect(pattern.matches("*x")).toBe(true);
    expect(pattern.matches("x*")).toBe(false);
  });

  it("matches by character, not by UTF-16 unit", () => {
    const pattern = compileShellPattern([{ text: "?b", quoted: false }]);
    expect(pattern.matches("😀b")).toBe(true);
    expect(removePattern("😀b😀", "%", compileShellPattern([{ text: "?", quoted: false }]))).toBe(
      "😀b",
    );
  });
});

describe("bash patterns never backtrack", () => {
  // As regular expressions these took from seconds to hours on a 200-character value.
  const hostile = ["*a*a*a*a*a*a*a*b", "*a*a*a*a*a*a*a*a*a*a*a*a*b", "?*?*?*?*?*?*b"];

  it("answers at once on the longest value the policy matches", () => {
    const value = "a".repeat(512);
    for (const text of hostile) {
      const pattern = compileShellPattern([{ text, quoted: false }]);
      expect(removePattern(value, "##", pattern)).toBe(value);
      expect(removePattern(value, "%", pattern)).toBe(value);
      expect(pattern.matches(value)).toBe(false);
    }
  });

  it("gives up past its budget instead of running on", () => {
    const pattern = compileShellPattern([{ text: `${"*a".repeat(100)}*b`, quoted: false }], 10_000);
    expect(() => replacePattern("a".repeat(512), "//", pattern, "-")).toThrow(PatternBudgetError);
    expect(codePoints("a😀")).toEqual([0x61, 0x1f600]);
  });
});

function quote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}
