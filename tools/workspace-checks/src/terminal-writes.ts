// Finds the places where a command writes text to the terminal that may have come from
// outside (a model server, an event, the model, a file) without the one escaper of
// `@xzatoma/safety` (toTerminalSafe and its siblings). Read with the TypeScript checker, so
// that what is known when the code is compiled passes without ceremony: literals, numbers,
// booleans, and strings whose type is a union of literals (a status, a verdict word).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** The escaper's functions: a value that went through one of them is safe to write. */
export const ESCAPERS: ReadonlySet<string> = new Set([
  "toTerminalSafe",
  "toTerminalSafeLine",
  "toTerminalSafeLineCut",
  "toTerminalSafeJson",
]);

/**
 * A write that is safe for a reason the checker cannot see says so in a comment on its line
 * or the line above: `// terminal-safe: <why>` (a forwarder whose callers escape, the
 * configuration's own text).
 */
export const ALLOW_COMMENT = /\/\/\s*terminal-safe:\s*\S/;

/** One write of text that may be untrusted, not through the escaper. */
export interface UnescapedWrite {
  readonly file: string;
  readonly line: number;
  /** The call as written, on one line. */
  readonly text: string;
}

const WRITERS = new Set([
  "process.stdout.write",
  "process.stderr.write",
  "console.log",
  "console.error",
  "console.warn",
  "console.info",
  "console.debug",
]);

const SAFE_FLAGS =
  ts.TypeFlags.NumberLike |
  ts.TypeFlags.BigIntLike |
  ts.TypeFlags.BooleanLike |
  ts.TypeFlags.Undefined |
  ts.TypeFlags.Null |
  ts.TypeFlags.Void |
  ts.TypeFlags.Never |
  ts.TypeFlags.StringLiteral |
  ts.TypeFlags.EnumLiteral;

/** A value of this type is text written in the source (a literal union) or not text at all. */
function isSafeType(type: ts.Type): boolean {
  if (type.isUnion()) return type.types.every(isSafeType);
  if (type.flags & ts.TypeFlags.TemplateLiteral) return false;
  return (type.flags & SAFE_FLAGS) !== 0;
}

function calleeName(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) {
    const owner = calleeName(expression.expression);
    return owner === undefined ? undefined : `${owner}.${expression.name.text}`;
  }
  return undefined;
}

function isEscaperCall(expression: ts.Expression, checker: ts.TypeChecker): boolean {
  if (!ts.isCallExpression(expression)) return false;
  const name = calleeName(expression.expression);
  if (name !== undefined && ESCAPERS.has(name.split(".").at(-1) ?? "")) return true;
  // `const safe = toTerminalSafeLine;` then `safe(text)`.
  const alias = constInitializer(expression.expression, checker);
  return alias !== undefined && ts.isIdentifier(alias) && ESCAPERS.has(alias.text);
}

/** String methods whose result is made only of the string they are called on (and their safe arguments). */
const DERIVING = new Set([
  "toFixed",
  "toString",
  "padEnd",
  "padStart",
  "trim",
  "trimEnd",
  "trimStart",
  "toLowerCase",
  "toUpperCase",
  "slice",
]);

/** The methods an array's reference may be used with for its elements to stay known. */
const READING = new Set(["join", "map", "slice", "filter", "at"]);

/** The declaration `expression` names, when it is a plain identifier. */
function declarationOf(
  expression: ts.Expression,
  checker: ts.TypeChecker,
): ts.Declaration | undefined {
  if (!ts.isIdentifier(expression)) return undefined;
  let symbol = checker.getSymbolAtLocation(expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol?.declarations?.[0];
}

/** The initializer of a `const` the identifier names, unwrapped of `as const` and `satisfies`. */
function constInitializer(
  expression: ts.Expression,
  checker: ts.TypeChecker,
): ts.Expression | undefined {
  const declaration = declarationOf(expression, checker);
  if (!declaration || !ts.isVariableDeclaration(declaration) || !declaration.initializer)
    return undefined;
  const list = declaration.parent;
  if (!ts.isVariableDeclarationList(list) || !(list.flags & ts.NodeFlags.Const)) return undefined;
  let initializer: ts.Expression = declaration.initializer;
  while (ts.isAsExpression(initializer) || ts.isSatisfiesExpression(initializer))
    initializer = initializer.expression;
  return initializer;
}

/** The expressions a function declared in the program returns, or undefined when unknown. */
function returnedFrom(callee: ts.Expression, checker: ts.TypeChecker): ts.Expression[] | undefined {
  let declaration: ts.Node | undefined = declarationOf(callee, checker);
  if (declaration && ts.isVariableDeclaration(declaration)) declaration = declaration.initializer;
  if (
    !declaration ||
    !(ts.isFunctionDeclaration(declaration) || ts.isArrowFunction(declaration)) ||
    !declaration.body
  )
    return undefined;
  if (!ts.isBlock(declaration.body)) return [declaration.body];
  const returned: ts.Expression[] = [];
  let unknown = false;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isReturnStatement(node)) {
      if (node.expression) returned.push(node.expression);
      else unknown = true;
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(declaration.body, visit);
  return unknown ? undefined : returned;
}

/** Whether `expression` can only be text written in the source, or text that was escaped. */
export function isSafeExpression(
  expression: ts.Expression,
  checker: ts.TypeChecker,
  seen: Set<ts.Node> = new Set(),
): boolean {
  // A node already being judged further up is a cycle (a function that returns itself).
  if (seen.has(expression)) return false;
  seen.add(expression);
  try {
    return judge(expression, checker, seen);
  } finally {
    seen.delete(expression);
  }
}

function judge(expression: ts.Expression, checker: ts.TypeChecker, seen: Set<ts.Node>): boolean {
  const safe = (inner: ts.Expression) => isSafeExpression(inner, checker, seen);
  /**
   * Every use of the array `name` names in its scope keeps its elements known: read with
   * `join`, `map`, ..., or added to with `push`/`unshift` of safe parts (`...more` included).
   */
  const safeUses = (name: ts.Expression): boolean => {
    const declaration = declarationOf(name, checker);
    if (!declaration || !ts.isIdentifier(name)) return false;
    const scope =
      ts.findAncestor(declaration, (node) => ts.isFunctionLike(node) || ts.isSourceFile(node)) ??
      declaration.getSourceFile();
    let ok = true;
    const visit = (node: ts.Node): void => {
      if (!ok) return;
      if (
        ts.isIdentifier(node) &&
        node !== name &&
        node.text === name.text &&
        declarationOf(node, checker) === declaration &&
        !(ts.isVariableDeclaration(node.parent) && node.parent.name === node)
      ) {
        const access = node.parent;
        if (!ts.isPropertyAccessExpression(access) || access.expression !== node) ok = false;
        else if (access.name.text === "length" || READING.has(access.name.text)) ok = true;
        else if (
          (access.name.text === "push" || access.name.text === "unshift") &&
          ts.isCallExpression(access.parent)
        )
          ok = access.parent.arguments.every((argument) =>
            ts.isSpreadElement(argument) ? safeParts(argument.expression) : safe(argument),
          );
        else ok = false;
      }
      ts.forEachChild(node, visit);
    };
    visit(scope);
    return ok;
  };
  const safeParts = (parts: ts.Expression): boolean => {
    const value = constInitializer(parts, checker) ?? parts;
    if (value !== parts && !safeUses(parts)) return false;
    if (ts.isArrayLiteralExpression(value))
      return value.elements.every((element) => !ts.isSpreadElement(element) && safe(element));
    if (ts.isConditionalExpression(value))
      return safeParts(value.whenTrue) && safeParts(value.whenFalse);
    // A part of a safe array is safe.
    if (
      ts.isCallExpression(value) &&
      ts.isPropertyAccessExpression(value.expression) &&
      ["filter", "slice"].includes(value.expression.name.text)
    )
      return safeParts(value.expression.expression);
    if (
      ts.isCallExpression(value) &&
      ts.isPropertyAccessExpression(value.expression) &&
      value.expression.name.text === "map"
    ) {
      const mapper = value.arguments[0];
      if (!mapper) return false;
      if (ts.isIdentifier(mapper) && ESCAPERS.has(mapper.text)) return true;
      if (ts.isArrowFunction(mapper) && !ts.isBlock(mapper.body)) return safe(mapper.body);
      const returned = ts.isIdentifier(mapper) ? returnedFrom(mapper, checker) : undefined;
      return returned !== undefined && returned.length > 0 && returned.every(safe);
    }
    return false;
  };
  // A const's value, a field of a const object of literals (a table of words), what a
  // function of the program returns: followed to the text they are made of.
  const initializer = constInitializer(expression, checker);
  if (initializer && safe(initializer)) return true;
  if (
    (ts.isElementAccessExpression(expression) || ts.isPropertyAccessExpression(expression)) &&
    ts.isObjectLiteralExpression(constInitializer(expression.expression, checker) ?? expression)
  ) {
    const table = constInitializer(expression.expression, checker) as ts.ObjectLiteralExpression;
    if (
      table.properties.every(
        (property) => ts.isPropertyAssignment(property) && safe(property.initializer),
      )
    )
      return true;
  }
  if (
    ts.isCallExpression(expression) &&
    ts.isPropertyAccessExpression(expression.expression) &&
    DERIVING.has(expression.expression.name.text) &&
    safe(expression.expression.expression) &&
    expression.arguments.every((argument) => safe(argument))
  )
    return true;
  if (ts.isCallExpression(expression) && !isEscaperCall(expression, checker)) {
    const returned = returnedFrom(expression.expression, checker);
    if (returned && returned.length > 0 && returned.every(safe)) return true;
  }
  if (
    ts.isParenthesizedExpression(expression) ||
    ts.isAsExpression(expression) ||
    ts.isNonNullExpression(expression) ||
    ts.isSatisfiesExpression(expression)
  )
    return safe(expression.expression);
  if (ts.isStringLiteralLike(expression) || ts.isNumericLiteral(expression)) return true;
  // `String(n)` of a number or a boolean.
  if (
    ts.isCallExpression(expression) &&
    ts.isIdentifier(expression.expression) &&
    expression.expression.text === "String" &&
    expression.arguments.length === 1 &&
    expression.arguments.every((argument) => safe(argument))
  )
    return true;
  if (isEscaperCall(expression, checker)) return true;
  if (ts.isTemplateExpression(expression))
    return expression.templateSpans.every((span) => safe(span.expression));
  if (
    ts.isBinaryExpression(expression) &&
    expression.operatorToken.kind === ts.SyntaxKind.PlusToken
  )
    return safe(expression.left) && safe(expression.right);
  if (ts.isConditionalExpression(expression))
    return safe(expression.whenTrue) && safe(expression.whenFalse);
  // `parts.join(sep)` where every part is safe: an array literal of safe parts, either of two
  // such arrays, or `items.map(f)` with an escaper or a function that returns safe text.
  if (ts.isCallExpression(expression) && ts.isPropertyAccessExpression(expression.expression)) {
    const { name, expression: target } = expression.expression;
    const separator = expression.arguments[0];
    if (name.text === "join" && (!separator || safe(separator))) return safeParts(target);
  }
  return isSafeType(checker.getTypeAtLocation(expression));
}

function allowed(source: ts.SourceFile, node: ts.Node): boolean {
  const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
  const lines = source.text.split("\n");
  return [lines[line], lines[line - 1]].some(
    (text) => text !== undefined && ALLOW_COMMENT.test(text),
  );
}

/** The unescaped writes of `files`, read as one program with `options`. */
export function findUnescapedWrites(
  files: readonly string[],
  options: ts.CompilerOptions,
  root: string,
): UnescapedWrite[] {
  const program = ts.createProgram({
    rootNames: [...files],
    options: { ...options, noEmit: true },
  });
  const checker = program.getTypeChecker();
  const found: UnescapedWrite[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`${file} is not in the program`);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const name = calleeName(node.expression);
        if (
          name !== undefined &&
          WRITERS.has(name) &&
          !node.arguments.every((argument) => isSafeExpression(argument, checker)) &&
          !allowed(source, node)
        ) {
          found.push({
            file: path.relative(root, file),
            line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
            text: node.getText(source).replace(/\s+/g, " "),
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/**
 * `paths` that resolve the workspace's packages (`@xzatoma/runtime`, `@xzatoma/watcher/runtime`)
 * to their TypeScript sources, so the check reads the same types whether or not the packages
 * were built.
 */
export function workspaceSourcePaths(root: string): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const group of ["packages", "tools"]) {
    const directory = path.join(root, group);
    for (const name of readdirSync(directory)) {
      const manifestFile = path.join(directory, name, "package.json");
      if (!existsSync(manifestFile)) continue;
      const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as {
        name: string;
        exports?: Record<string, unknown>;
      };
      for (const subpath of Object.keys(manifest.exports ?? {})) {
        if (subpath === "./package.json") continue;
        const tail = subpath === "." ? "index" : subpath.slice(2);
        const candidates = [
          path.join(directory, name, "src", `${tail}.ts`),
          path.join(directory, name, "src", tail, "index.ts"),
          path.join(directory, name, `${tail}.ts`),
          path.join(directory, name, `${tail}-server.ts`),
        ];
        const source = candidates.find((candidate) => existsSync(candidate));
        if (source) paths[subpath === "." ? manifest.name : `${manifest.name}/${tail}`] = [source];
      }
    }
  }
  return paths;
}

/** The compiler options of the `tsconfig.json` in `directory`. */
export function compilerOptionsOf(directory: string): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(directory, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!parsed) throw new Error(`cannot read ${directory}/tsconfig.json`);
  return parsed.options;
}
