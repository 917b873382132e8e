import { z } from "zod";
import { expectationOf } from "@xzatoma/core/config";

import type { KeySegments } from "./key-path.js";

export { formatKeyPath, type KeySegments } from "./key-path.js";

/** The schema and every wrapper inside it (default, optional, preprocess, ...), outermost first. */
function unwrapChain(schema: z.ZodType): z.ZodType[] {
  const chain: z.ZodType[] = [schema];
  let current = schema;
  for (;;) {
    if (
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault ||
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable
    ) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      // `.transform(fn)` pipes into a ZodTransform: the value as written is the pipe's input.
      // `z.preprocess(fn, schema)` pipes a ZodTransform into `schema`: the value is `schema`'s.
      const out = current.out as z.ZodType;
      current = (out instanceof z.ZodTransform ? current.in : out) as z.ZodType;
    } else {
      return chain;
    }
    chain.push(current);
  }
}

/** The schema without its wrappers (default, optional, preprocess, ...). */
export function innermostSchema(schema: z.ZodType): z.ZodType {
  const chain = unwrapChain(schema);
  return chain[chain.length - 1] ?? schema;
}

/** The schema of the key or index `segment` inside `schema`, or undefined when it has none. */
export function childSchema(schema: z.ZodType, segment: string | number): z.ZodType | undefined {
  const inner = innermostSchema(schema);
  if (inner instanceof z.ZodObject && typeof segment === "string") {
    return (inner.shape as Record<string, z.ZodType | undefined>)[segment];
  }
  if (inner instanceof z.ZodArray && typeof segment === "number") return inner.element as z.ZodType;
  if (inner instanceof z.ZodRecord) return inner.valueType as z.ZodType;
  return undefined;
}

/** The schema at `segments` below `root`, or undefined when there is no such key. */
export function schemaAt(root: z.ZodType, segments: KeySegments): z.ZodType | undefined {
  let current: z.ZodType | undefined = root;
  for (const segment of segments) {
    if (current === undefined) return undefined;
    current = childSchema(current, segment);
  }
  return current;
}

/** What the value at `segments` should be, in words ("a positive integer"). */
export function expectationAt(root: z.ZodType, segments: KeySegments): string | undefined {
  const schema = schemaAt(root, segments);
  if (schema === undefined) return undefined;
  for (const link of unwrapChain(schema)) {
    const expectation = expectationOf(link);
    if (expectation !== undefined) return expectation;
  }
  return innermostSchema(schema) instanceof z.ZodObject
    ? "a mapping of settings (key: value)"
    : undefined;
}

/** The keys an object at `segments` accepts (empty when it is not an object). */
export function keysAt(root: z.ZodType, segments: KeySegments): string[] {
  const schema = schemaAt(root, segments);
  if (schema === undefined) return [];
  const inner = innermostSchema(schema);
  return inner instanceof z.ZodObject ? Object.keys(inner.shape) : [];
}

/** Every key path of the schema's objects (`agent.max_turns`, ...), arrays and records not entered. */
export function allKeyPaths(root: z.ZodType, prefix = ""): string[] {
  const inner = innermostSchema(root);
  if (!(inner instanceof z.ZodObject)) return [];
  const paths: string[] = [];
  for (const [key, child] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    paths.push(path);
    paths.push(...allKeyPaths(child, path));
  }
  return paths;
}

/** Whether the value at `segments` is a leaf: not an object with keys of its own. */
export function isLeafAt(root: z.ZodType, segments: KeySegments): boolean {
  const schema = schemaAt(root, segments);
  return schema !== undefined && isLeafSchema(schema);
}

/** Whether a value of `schema` is a leaf: not an object with keys of its own. */
export function isLeafSchema(schema: z.ZodType): boolean {
  return !(innermostSchema(schema) instanceof z.ZodObject);
}

/**
 * Every leaf key path of the schema's objects with its schema unwrapped, arrays and records
 * not entered: `allKeyPaths` filtered by `isLeafAt`, in one walk.
 */
export function leafKeyPaths(
  root: z.ZodType,
  prefix = "",
): { readonly keyPath: string; readonly schema: z.ZodType }[] {
  const inner = innermostSchema(root);
  if (!(inner instanceof z.ZodObject)) return [];
  const leaves: { keyPath: string; schema: z.ZodType }[] = [];
  for (const [key, child] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
    const keyPath = prefix === "" ? key : `${prefix}.${key}`;
    const childInner = innermostSchema(child);
    if (childInner instanceof z.ZodObject) leaves.push(...leafKeyPaths(childInner, keyPath));
    else leaves.push({ keyPath, schema: childInner });
  }
  return leaves;
}
