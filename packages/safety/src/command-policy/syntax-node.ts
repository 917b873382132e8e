/** A node of the bash syntax tree, copied out of tree-sitter into plain objects. */
export interface SyntaxNode {
  /** The grammar type, such as `command`, `word` or, for anonymous tokens, `&&`. */
  readonly type: string;
  /** Whether the node is a named grammar rule rather than an anonymous token. */
  readonly named: boolean;
  /** The field name under which the parent holds this node, if any. */
  readonly field: string | null;
  /** The source text the node spans. */
  readonly text: string;
  /** Where the node starts in the parsed source, in UTF-16 code units. */
  readonly start: number;
  readonly children: readonly SyntaxNode[];
}

/** The named children of `node`, comments left out. */
export function namedChildren(node: SyntaxNode): SyntaxNode[] {
  return node.children.filter((child) => child.named && child.type !== "comment");
}

/** The children of `node` held under `field`. */
export function fieldChildren(node: SyntaxNode, field: string): SyntaxNode[] {
  return node.children.filter((child) => child.field === field);
}

/** The number of nodes of type `type` in the tree below and including `node`. */
export function countType(node: SyntaxNode, type: string): number {
  let count = node.type === type ? 1 : 0;
  for (const child of node.children) count += countType(child, type);
  return count;
}
