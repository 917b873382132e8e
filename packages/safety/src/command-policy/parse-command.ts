import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Language, Parser, TreeCursor } from "web-tree-sitter";
import type { SyntaxNode } from "./syntax-node.js";
import { compileBaselineOnly } from "./wasm-baseline.js";

/** Deeper trees than this are not analysed: they fail closed. */
const MAX_TREE_DEPTH = 200;

/** Why a parse did not give a clean tree. */
export type ParseFailure = "syntax-error" | "timeout" | "too-deep";

/** The result of parsing one script. */
export type ParseOutcome =
  | { readonly ok: true; readonly root: SyntaxNode }
  | {
      readonly ok: false;
      readonly failure: ParseFailure;
      /** The partial tree of a syntax error, for a best-effort scan; absent otherwise. */
      readonly root?: SyntaxNode;
    };

/** A bash parser bound to one tree-sitter `Parser` instance. */
export interface BashParser {
  /**
   * Parses `text`; a parse that reaches `timeoutMs` of CPU time fails with `timeout`, so a
   * timeout of 0 never parses (the clock moves in steps of a few milliseconds on some
   * kernels: "past the deadline" would let a short parse through).
   */
  parse(text: string, timeoutMs: number): ParseOutcome;
}

let bashLanguage: Promise<{ language: Language; Parser: typeof Parser }> | undefined;

/**
 * The bash grammar (`tree-sitter-bash.wasm`, MIT). The published package carries a copy
 * next to its built code, so installing XZatoma does not pull the 20 MB tree-sitter-bash
 * package (C sources, native prebuilds) for one 1.3 MB file; in the workspace it comes
 * from the tree-sitter-bash dev dependency.
 */
function bashGrammarPath(): string {
  const bundled = fileURLToPath(new URL("./tree-sitter-bash.wasm", import.meta.url));
  if (existsSync(bundled)) return bundled;
  return createRequire(import.meta.url).resolve("tree-sitter-bash/tree-sitter-bash.wasm");
}

/**
 * Loads web-tree-sitter and the bash grammar once per process, on first use. The grammar
 * is compiled here rather than by `Language.load`, so that it is compiled with Liftoff only
 * and never tiered up to TurboFan (see `wasm-baseline.ts`): tiering up its lexer costs
 * ~0.5 s of CPU and ~460 MiB of peak memory, and commands (32 KB at most) never run the
 * lexer long enough to repay it. web-tree-sitter's own runtime keeps V8's default tiering.
 */
function loadBashLanguage(): Promise<{ language: Language; Parser: typeof Parser }> {
  if (bashLanguage === undefined) {
    const loading = (async () => {
      // web-tree-sitter compiles its runtime with V8's asynchronous WebAssembly compiler, whose
      // background work does not keep Node's event loop alive. Compiled eagerly (node started
      // with --no-wasm-lazy-compilation) it outlasts everything else the loop waits for, and
      // the process exits with 0 in the middle of a command's check. A timer holds the loop
      // open until the grammar is ready.
      const keepAlive = setInterval(() => undefined, 60_000);
      try {
        // Imported here, not at the top: a process that checks no command never loads it.
        const { Language, Parser } = await import("web-tree-sitter");
        await Parser.init();
        const grammar = await readFile(bashGrammarPath());
        return { language: Language.loadSync(compileBaselineOnly(grammar)), Parser };
      } finally {
        clearInterval(keepAlive);
      }
    })();
    // A failed load is retried by the next policy instead of being cached forever.
    loading.catch(() => (bashLanguage = undefined));
    bashLanguage = loading;
  }
  return bashLanguage;
}

class TreeTooDeepError extends Error {}

/**
 * Milliseconds of CPU time the calling thread has used: the parse deadline counts the work
 * the parser does, not the time a loaded machine spends running other processes. Wall-clock
 * time where the runtime does not report thread CPU time.
 */
export const parseClock: () => number =
  typeof process.threadCpuUsage === "function"
    ? () => {
        const usage = process.threadCpuUsage();
        return (usage.user + usage.system) / 1000;
      }
    : () => performance.now();

function copyTree(cursor: TreeCursor, source: string, depth: number): SyntaxNode {
  if (depth > MAX_TREE_DEPTH) throw new TreeTooDeepError();
  const type = cursor.nodeIsMissing ? "MISSING" : cursor.nodeType;
  const named = cursor.nodeIsNamed;
  const field = cursor.currentFieldName;
  const start = cursor.startIndex;
  const text = source.slice(start, cursor.endIndex);
  const children: SyntaxNode[] = [];
  if (cursor.gotoFirstChild()) {
    do children.push(copyTree(cursor, source, depth + 1));
    while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }
  return { type, named, field, text, start, children };
}

/**
 * Creates a bash parser. The grammar is loaded from the `tree-sitter-bash.wasm` that
 * tree-sitter-bash ships; nothing is loaded at import time.
 */
export async function createBashParser(clock: () => number = parseClock): Promise<BashParser> {
  const { language, Parser } = await loadBashLanguage();
  const parser = new Parser();
  parser.setLanguage(language);

  function parse(text: string, timeoutMs: number): ParseOutcome {
    const deadline = clock() + timeoutMs;
    const expired = (): boolean => clock() >= deadline;
    const tree = parser.parse(text, null, { progressCallback: expired });
    if (tree === null) {
      parser.reset();
      return { ok: false, failure: "timeout" };
    }
    const cursor = tree.walk();
    try {
      if (expired()) return { ok: false, failure: "timeout" };
      const root = copyTree(cursor, text, 0);
      return tree.rootNode.hasError
        ? { ok: false, failure: "syntax-error", root }
        : { ok: true, root };
    } catch (error) {
      if (error instanceof TreeTooDeepError) return { ok: false, failure: "too-deep" };
      throw error;
    } finally {
      cursor.delete();
      tree.delete();
    }
  }

  return { parse };
}
