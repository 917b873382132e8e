import type { createLowlight } from "lowlight";

type Lowlight = ReturnType<typeof createLowlight>;
type HastNode = ReturnType<Lowlight["highlight"]>["children"][number];

/** highlight.js's scopes and the terminal colours (SGR foreground codes) they get. */
const SCOPE_COLORS: Readonly<Record<string, number>> = {
  keyword: 35,
  built_in: 36,
  type: 36,
  literal: 33,
  number: 33,
  string: 32,
  regexp: 31,
  "template-variable": 31,
  subst: 39,
  symbol: 33,
  title: 34,
  "title.function": 34,
  "title.class": 36,
  params: 39,
  comment: 90,
  doctag: 90,
  meta: 90,
  attr: 33,
  attribute: 33,
  name: 34,
  tag: 34,
  "selector-tag": 35,
  "selector-class": 33,
  variable: 31,
  addition: 32,
  deletion: 31,
  section: 34,
  bullet: 33,
  link: 34,
};

let lowlight: Lowlight | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the highlighter (lowlight: highlight.js's grammars for ~35 common languages,
 * giving a syntax tree instead of HTML). It is not loaded at start-up, which it would slow
 * by ~50 ms: the chat calls this once its prompt is ready, and code blocks that end before
 * it has loaded are printed without colours.
 */
export function preloadHighlighter(): Promise<void> {
  loading ??= import("lowlight").then((module) => {
    lowlight = module.createLowlight(module.common);
  });
  return loading;
}

/** The colour of a node with these classes (`hljs-title`, `function_`), if any. */
function colorOf(classes: readonly string[]): number | undefined {
  const scopes = classes.filter((name) => name.startsWith("hljs-")).map((name) => name.slice(5));
  if (scopes.length === 0) return undefined;
  const joined = [
    scopes[0],
    ...classes.filter((name) => name.endsWith("_")).map((name) => name.slice(0, -1)),
  ].join(".");
  return SCOPE_COLORS[joined] ?? SCOPE_COLORS[scopes[0] ?? ""];
}

/**
 * `code` coloured for a terminal, or undefined when the highlighter is not loaded yet or
 * does not know `language`. Each line of the result stands alone (a colour that spans
 * lines is closed at each line's end and opened again), so a caller may print any one
 * line. `code` must already be escaped for the terminal: this only adds colours.
 */
export function highlightCode(code: string, language: string): string | undefined {
  if (!lowlight || language === "" || !lowlight.registered(language)) return undefined;
  let tree: ReturnType<Lowlight["highlight"]>;
  try {
    tree = lowlight.highlight(language, code);
  } catch {
    return undefined;
  }
  const stack: number[] = [];
  const open = () => (stack.length > 0 ? `\x1b[${stack.at(-1)}m` : "");
  let text = "";
  const visit = (node: HastNode) => {
    if (node.type === "text") {
      // A colour spanning lines is closed before each newline and opened after it.
      text += node.value.split("\n").join(`${stack.length > 0 ? "\x1b[39m" : ""}\n${open()}`);
      return;
    }
    if (node.type !== "element") return;
    const classes = Array.isArray(node.properties["className"])
      ? (node.properties["className"] as unknown[]).map(String)
      : [];
    const color = colorOf(classes);
    if (color !== undefined) {
      stack.push(color);
      text += `\x1b[${color}m`;
    }
    for (const child of node.children) visit(child);
    if (color !== undefined) {
      stack.pop();
      text += stack.length > 0 ? open() : "\x1b[39m";
    }
  };
  for (const node of tree.children) visit(node);
  return text;
}
