/**
 * The zod-free schema reader. It interprets a {@link SchemaNode} table that the build
 * generates from a zod schema (`schemaNodeOf` of `@xzatoma/core/config`) and answers either
 * with exactly what the zod schema's `parse` returns or with "not sure". "Not sure" is every
 * answer it was not generated to give: any problem at all, a refinement or transform it has
 * no zod-free function for, an input that is not plain data. The caller then asks zod, which
 * reports the problems in its own words. The configuration read at start-up and the tools'
 * inputs both use it, so that a valid configuration and a valid tool call load no zod
 * (docs/explanation/launch-path.md).
 */

/**
 * The zod-free functions a schema's refinements, rules across keys and preprocess steps call,
 * by name. A table names them; the reader calls the function of that name, and a name missing
 * here makes it "not sure".
 */
export interface SchemaChecks {
  /** `z.string().refine(fn)`: the value passes when `fn` returns true. */
  readonly refinements: Readonly<Record<string, (value: string) => unknown>>;
  /** A rule across an object's keys: the object passes when it returns no issue. */
  readonly rules: Readonly<Record<string, (value: never) => readonly unknown[]>>;
  /** `z.preprocess(fn, schema)`: `fn` turns the value into what `schema` reads. */
  readonly preprocess: Readonly<Record<string, (value: never) => unknown>>;
}

/** A schema without refinements, rules or preprocess steps needs no functions. */
export const NO_SCHEMA_CHECKS: SchemaChecks = { refinements: {}, rules: {}, preprocess: {} };

/** A check of a string: trimmed, its length, a pattern, or a named zod-free predicate. */
export type StringCheck =
  | { readonly trim: true }
  | { readonly minLength: number }
  | { readonly maxLength: number }
  | { readonly pattern: string; readonly flags: string }
  | { readonly refine: string };

/** A check of a number: a safe integer, or a bound (inclusive or not). */
export type NumberCheck =
  | { readonly int: true }
  | { readonly min: number; readonly inclusive: boolean }
  | { readonly max: number; readonly inclusive: boolean };

/** One zod schema, as the generator wrote it down. */
export type SchemaNode =
  | {
      readonly kind: "object";
      readonly keys: Readonly<Record<string, SchemaNode>>;
      /** `strict`: an unknown key is an error; `strip`: it is dropped. */
      readonly unknownKeys: "strict" | "strip";
      readonly rules?: readonly string[];
    }
  | { readonly kind: "string"; readonly checks: readonly StringCheck[] }
  | { readonly kind: "number"; readonly checks: readonly NumberCheck[] }
  | { readonly kind: "boolean" }
  | { readonly kind: "literal"; readonly values: readonly (string | number | boolean | null)[] }
  | {
      readonly kind: "array";
      readonly element: SchemaNode;
      readonly minLength?: number;
      readonly maxLength?: number;
    }
  | { readonly kind: "record"; readonly key: SchemaNode; readonly value: SchemaNode }
  | { readonly kind: "union"; readonly options: readonly SchemaNode[] }
  | { readonly kind: "unknown" }
  | { readonly kind: "default"; readonly inner: SchemaNode; readonly value: unknown }
  | { readonly kind: "prefault"; readonly inner: SchemaNode; readonly value: unknown }
  | { readonly kind: "optional"; readonly inner: SchemaNode }
  | { readonly kind: "nullable"; readonly inner: SchemaNode }
  | { readonly kind: "preprocess"; readonly step: string; readonly inner: SchemaNode }
  | {
      /**
       * Something the reader cannot decide (a transform, a refinement without a zod-free
       * function): any value here is "not sure". `inner` is the schema a key path is followed
       * through, as a zod schema walk does.
       */
      readonly kind: "unsure";
      readonly why: string;
      readonly inner?: SchemaNode;
    };

/** The reader's answer: the value zod would give, or "not sure". */
export type ReadResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

const NOT_SURE: ReadResult = { ok: false };
const ok = (value: unknown): ReadResult => ({ ok: true, value });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** The function `name` of `table`, only when it is the table's own (never `toString`, ...). */
function named<T>(table: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

function readString(checks: readonly StringCheck[], value: unknown, fns: SchemaChecks) {
  if (typeof value !== "string") return NOT_SURE;
  let text = value;
  for (const check of checks) {
    if ("trim" in check) text = text.trim();
    else if ("minLength" in check) {
      if (text.length < check.minLength) return NOT_SURE;
    } else if ("maxLength" in check) {
      if (text.length > check.maxLength) return NOT_SURE;
    } else if ("pattern" in check) {
      if (!new RegExp(check.pattern, check.flags).test(text)) return NOT_SURE;
    } else {
      const refine = named(fns.refinements, check.refine);
      if (refine === undefined || !refine(text)) return NOT_SURE;
    }
  }
  return ok(text);
}

function readNumber(checks: readonly NumberCheck[], value: unknown): ReadResult {
  if (typeof value !== "number" || !Number.isFinite(value)) return NOT_SURE;
  for (const check of checks) {
    if ("int" in check) {
      if (!Number.isSafeInteger(value)) return NOT_SURE;
    } else if ("min" in check) {
      if (check.inclusive ? value < check.min : value <= check.min) return NOT_SURE;
    } else if (check.inclusive ? value > check.max : value >= check.max) return NOT_SURE;
  }
  return ok(value);
}

function readObject(
  node: Extract<SchemaNode, { kind: "object" }>,
  value: unknown,
  fns: SchemaChecks,
): ReadResult {
  if (!isPlainObject(value)) return NOT_SURE;
  for (const key of Object.keys(value)) {
    if (key === "__proto__") return NOT_SURE;
    if (node.unknownKeys === "strict" && !Object.hasOwn(node.keys, key)) return NOT_SURE;
  }
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node.keys)) {
    const present = Object.hasOwn(value, key);
    const given = present ? value[key] : undefined;
    // A key that is there with nothing in it is something zod words its own way.
    if (present && given === undefined) return NOT_SURE;
    const read = readSchemaValue(child, given, fns);
    if (!read.ok) return NOT_SURE;
    if (read.value !== undefined) result[key] = read.value;
  }
  for (const name of node.rules ?? []) {
    const rule = named(fns.rules, name) as ((value: unknown) => readonly unknown[]) | undefined;
    if (rule === undefined || rule(result).length > 0) return NOT_SURE;
  }
  return ok(result);
}

function readArray(
  node: Extract<SchemaNode, { kind: "array" }>,
  value: unknown,
  fns: SchemaChecks,
): ReadResult {
  if (!Array.isArray(value)) return NOT_SURE;
  if (node.minLength !== undefined && value.length < node.minLength) return NOT_SURE;
  if (node.maxLength !== undefined && value.length > node.maxLength) return NOT_SURE;
  const result: unknown[] = [];
  for (const item of value) {
    const read = readSchemaValue(node.element, item, fns);
    if (!read.ok) return NOT_SURE;
    result.push(read.value);
  }
  return ok(result);
}

function readRecord(
  node: Extract<SchemaNode, { kind: "record" }>,
  value: unknown,
  fns: SchemaChecks,
): ReadResult {
  if (!isPlainObject(value)) return NOT_SURE;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === "__proto__" || item === undefined) return NOT_SURE;
    const readKey = readSchemaValue(node.key, key, fns);
    if (!readKey.ok || readKey.value !== key) return NOT_SURE;
    const read = readSchemaValue(node.value, item, fns);
    if (!read.ok) return NOT_SURE;
    result[key] = read.value;
  }
  return ok(result);
}

/**
 * Reads `value` (plain data: parsed YAML, JSON, or values from the environment) with `node`:
 * what the zod schema `node` was generated from returns for it, or "not sure". `fns` holds the
 * zod-free functions the table names (refinements, rules, preprocess steps).
 */
export function readSchemaValue(
  node: SchemaNode,
  value: unknown,
  fns: SchemaChecks = NO_SCHEMA_CHECKS,
): ReadResult {
  switch (node.kind) {
    case "object":
      return readObject(node, value, fns);
    case "string":
      return readString(node.checks, value, fns);
    case "number":
      return readNumber(node.checks, value);
    case "boolean":
      return typeof value === "boolean" ? ok(value) : NOT_SURE;
    case "literal":
      return node.values.includes(value as string) ? ok(value) : NOT_SURE;
    case "array":
      return readArray(node, value, fns);
    case "record":
      return readRecord(node, value, fns);
    case "union":
      for (const option of node.options) {
        const read = readSchemaValue(option, value, fns);
        if (read.ok) return read;
      }
      return NOT_SURE;
    case "unknown":
      return ok(value);
    case "default":
      if (value === undefined) return ok(structuredClone(node.value));
      return readSchemaValue(node.inner, value, fns);
    case "prefault":
      return readSchemaValue(
        node.inner,
        value === undefined ? structuredClone(node.value) : value,
        fns,
      );
    case "optional":
      return value === undefined ? ok(undefined) : readSchemaValue(node.inner, value, fns);
    case "nullable":
      return value === null ? ok(null) : readSchemaValue(node.inner, value, fns);
    case "preprocess": {
      const step = named(fns.preprocess, node.step) as ((value: unknown) => unknown) | undefined;
      if (step === undefined) return NOT_SURE;
      let prepared: unknown;
      try {
        prepared = step(value);
      } catch {
        return NOT_SURE;
      }
      return readSchemaValue(node.inner, prepared, fns);
    }
    case "unsure":
      return NOT_SURE;
  }
}

/** The node without its wrappers (default, optional, preprocess, ...), as `innermostSchema`. */
export function innermostNode(node: SchemaNode): SchemaNode {
  let current = node;
  while (
    current.kind === "default" ||
    current.kind === "prefault" ||
    current.kind === "optional" ||
    current.kind === "nullable" ||
    current.kind === "preprocess" ||
    (current.kind === "unsure" && current.inner !== undefined)
  ) {
    current = current.inner as SchemaNode;
  }
  return current;
}

/** The node of the key or index `segment` inside `node`, as `childSchema` finds it. */
export function childNode(node: SchemaNode, segment: string | number): SchemaNode | undefined {
  const inner = innermostNode(node);
  if (inner.kind === "object" && typeof segment === "string") {
    return Object.hasOwn(inner.keys, segment) ? inner.keys[segment] : undefined;
  }
  if (inner.kind === "array" && typeof segment === "number") return inner.element;
  if (inner.kind === "record") return inner.value;
  return undefined;
}

/** The node at `segments` below `root`, or undefined when there is no such key. */
export function nodeAt(
  root: SchemaNode,
  segments: readonly (string | number)[],
): SchemaNode | undefined {
  let current: SchemaNode | undefined = root;
  for (const segment of segments) {
    if (current === undefined) return undefined;
    current = childNode(current, segment);
  }
  return current;
}

/** Whether a value of `node` is a leaf: not an object with keys of its own. */
export function isLeafNode(node: SchemaNode): boolean {
  return innermostNode(node).kind !== "object";
}
