// One error vocabulary: every error class a library declares extends XzatomaError of
// @xzatoma/errors, so it carries the one marker (`isXzatomaError`) and a code of the closed
// ERROR_CODES (the compiler checks the code once the class extends the base). This test reads
// every library's source (tests aside) with the TypeScript parser and follows each class's
// `extends` chain: a chain that reaches `Error` without passing XzatomaError fails, as does a
// copy of the marker outside @xzatoma/errors. It also checks that docs/reference/error-codes.md
// lists every code.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { librarySources } from "./library-sources.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BASE = "XzatomaError";
const BASE_FILE = "packages/errors/src/xzatoma-error.ts";
/** The marker, however it is quoted. */
const MARKER = /Symbol\.for\(\s*["'`]xzatoma\.error["'`]\s*\)/;

/** JavaScript's own error classes: a chain that ends at one of them is an error class. */
const BUILTIN_ERRORS = new Set([
  "Error",
  "AggregateError",
  "EvalError",
  "RangeError",
  "ReferenceError",
  "SyntaxError",
  "TypeError",
  "URIError",
]);

/**
 * Classes that extend `Error` on purpose, by `file#Class`, with the reason. They are signals
 * inside a library, not failures a caller reads a code from.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  "packages/core/src/agent-run.ts#RunStop":
    "an abort reason (`controller.abort(new RunStop('quota'))`) that ends a run with a stop reason, not a failure",
  "packages/core/src/tool-registry.ts#TimeoutError":
    "module-private: thrown and caught in the same file, where it becomes a failed tool result",
  "packages/safety/src/path-rules/git-config-file.ts#GitConfigSyntaxError":
    "internal to the path rules, which then protect every path conservatively; not exported by the package",
  "packages/safety/src/sandbox/egress/channel-frames.ts#ChannelProtocolError":
    "internal to the egress channel, which closes on it; not exported by the package",
  "packages/safety/src/sandbox/upper-tree.ts#ChangesTooLargeError":
    "internal to the sandbox, which turns it into a discarded change set with a reason; not exported by the package",
  "packages/safety/src/command-policy/parse-command.ts#TreeTooDeepError":
    "module-private: thrown and caught in the same file, where it becomes a `too-deep` parse failure",
};

interface DeclaredClass {
  readonly id: string;
  readonly name: string;
  readonly file: string;
  readonly base: string | undefined;
}

/** The name a heritage clause extends: `XzatomaError<F>` gives `XzatomaError`, `ns.Foo` gives `Foo`. */
function baseName(expression: ts.Expression): string {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return expression.getText();
}

function declaredClasses(file: string): DeclaredClass[] {
  const relative = path.relative(ROOT, file).split(path.sep).join("/");
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const found: DeclaredClass[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && node.name) {
      const heritage = node.heritageClauses?.find(
        (clause) => clause.token === ts.SyntaxKind.ExtendsKeyword,
      );
      const extended = heritage?.types[0]?.expression;
      found.push({
        id: `${relative}#${node.name.text}`,
        name: node.name.text,
        file: relative,
        base: extended === undefined ? undefined : baseName(extended),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = librarySources(ROOT);
const classes = files.flatMap(declaredClasses);
const byName = new Map<string, DeclaredClass[]>();
for (const declared of classes)
  byName.set(declared.name, [...(byName.get(declared.name) ?? []), declared]);

/**
 * Where a class's `extends` chain ends: `base` at XzatomaError, `builtin` at one of
 * JavaScript's errors (without passing XzatomaError), `other` at anything else.
 */
function chainEnd(declared: DeclaredClass, seen = new Set<string>()): "base" | "builtin" | "other" {
  if (declared.name === BASE && declared.file === BASE_FILE) return "base";
  if (seen.has(declared.id)) return "other";
  seen.add(declared.id);
  const base = declared.base;
  if (base === undefined) return "other";
  if (base === BASE) return "base";
  if (BUILTIN_ERRORS.has(base)) return "builtin";
  const candidates = byName.get(base) ?? [];
  // A same-named class in the same file shadows the others; else any library's class of that
  // name (the packages import each other by name).
  const local = candidates.find((candidate) => candidate.file === declared.file);
  const next = local ?? candidates[0];
  return next === undefined ? "other" : chainEnd(next, seen);
}

describe("error classes", () => {
  it("reads the libraries' classes (the check is not vacuous)", () => {
    const names = new Set(classes.map((declared) => declared.name));
    for (const expected of [
      "XzatomaError",
      "HistoryError",
      "PathOutsideWorkspaceError",
      "UrlBlockedError",
      "KafkaTransportError",
      "XzeprApiError",
      "EventFilterError",
      "ConversationFormatError",
      "GlobSyntaxError",
    ])
      expect(names, expected).toContain(expected);
  });

  it("extend XzatomaError, except the allow-listed signals", () => {
    const offenders = classes
      .filter((declared) => !(declared.name === BASE && declared.file === BASE_FILE))
      .filter((declared) => {
        const end = chainEnd(declared);
        if (end === "base") return false;
        // An error by its chain, or by its name when its base is outside the libraries.
        return end === "builtin" || declared.name.endsWith("Error");
      })
      .map((declared) => declared.id)
      .filter((id) => !(id in ALLOWED));
    expect(offenders, "error classes that do not extend XzatomaError").toEqual([]);
  });

  it("allow-lists only classes that exist and still extend Error", () => {
    const stale = Object.keys(ALLOWED).filter((id) => {
      const declared = classes.find((candidate) => candidate.id === id);
      return declared === undefined || chainEnd(declared) !== "builtin";
    });
    expect(stale).toEqual([]);
  });

  it("copy the xzatoma.error marker nowhere outside @xzatoma/errors", () => {
    const copies = files
      .filter((file) => !file.startsWith(path.join(ROOT, "packages", "errors") + path.sep))
      .filter((file) => MARKER.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(ROOT, file));
    expect(copies).toEqual([]);
  });
});

/** The codes of ERROR_CODES, read from its source (no build needed). */
function errorCodes(): string[] {
  const file = path.join(ROOT, "packages/errors/src/error-codes.ts");
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const codes: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === "ERROR_CODES" &&
      node.initializer !== undefined
    ) {
      const list = ts.isAsExpression(node.initializer)
        ? node.initializer.expression
        : node.initializer;
      if (ts.isArrayLiteralExpression(list))
        for (const element of list.elements)
          if (ts.isStringLiteral(element)) codes.push(element.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return codes;
}

describe("the error codes reference", () => {
  it("lists every code of ERROR_CODES, and no other", () => {
    const codes = errorCodes();
    expect(codes.length).toBeGreaterThan(20);
    const page = readFileSync(path.join(ROOT, "docs/reference/error-codes.md"), "utf8");
    const documented = new Set(
      page
        .split("\n")
        .filter((line) => line.startsWith("| `"))
        .flatMap((line) => [...(line.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z_]+)`/g)])
        .map((match) => match[1]),
    );
    expect(codes.filter((code) => !documented.has(code))).toEqual([]);
    expect([...documented].filter((code) => !codes.includes(code as string))).toEqual([]);
  });
});
