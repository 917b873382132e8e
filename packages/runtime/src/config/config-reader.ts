/**
 * The configuration reader that runs at start-up instead of zod. It interprets the table
 * `config-reader.generated.ts` holds, which the build generates from `runtimeConfigSchema`
 * (`generate-config-reader.ts`), and answers either with exactly what the zod schema's
 * `parse` returns or with "not sure". "Not sure" is every answer it was not generated to
 * give: any problem at all, a refinement or transform it has no zod-free function for, an
 * input that is not plain data. Then the loader asks zod, which reports the problems with
 * their files, lines and key paths (docs/explanation/launch-path.md).
 */
import { CONFIG_CHECKS } from "./config-checks.js";

/** A check of a string: trimmed, its length, a pattern, or a named zod-free predicate. */
export type StringCheck =
  | { readonly trim: true }
  | { readonly minLength: number }
  | { readonly maxLength: number }
  | { readonly pattern: string; readonly flags: string }
  | { readonly refine: keyof typeof CONFIG_CHECKS.refinements };

/** A check of a number: a safe integer, or a bound (inclusive or not). */
export type NumberCheck =
  | { readonly int: true }
  | { readonly min: number; readonly inclusive: boolean }
  | { readonly max: number; readonly inclusive: boolean };

/** One schema of the configuration, as the generator wrote it down. */
export type ConfigNode =
  | {
      readonly kind: "object";
      readonly keys: Readonly<Record<string, ConfigNode>>;
      /** `strict`: an unknown key is an error; `strip`: it is dropped. */
      readonly unknownKeys: "strict" | "strip";
      readonly rules?: readonly (keyof typeof CONFIG_CHECKS.rules)[];
    }
  | { readonly kind: "string"; readonly checks: readonly StringCheck[] }
  | { readonly kind: "number"; readonly checks: readonly NumberCheck[] }
  | { readonly kind: "boolean" }
  | { readonly kind: "literal"; readonly values: readonly (string | number | boolean | null)[] }
  | {
      readonly kind: "array";
      readonly element: ConfigNode;
      readonly minLength?: number;
      readonly maxLength?: number;
    }
  | { readonly kind: "record"; readonly key: ConfigNode; readonly value: ConfigNode }
  | { readonly kind: "union"; readonly options: readonly ConfigNode[] }
  | { readonly kind: "unknown" }
  | { readonly kind: "default"; readonly inner: ConfigNode; readonly value: unknown }
  | { readonly kind: "prefault"; readonly inner: ConfigNode; readonly value: unknown }
  | { readonly kind: "optional"; readonly inner: ConfigNode }
  | { readonly kind: "nullable"; readonly inner: ConfigNode }
  | {
      readonly kind: "preprocess";
      readonly step: keyof typeof CONFIG_CHECKS.preprocess;
      readonly inner: ConfigNode;
    }
  | {
      /**
       * Something the reader cannot decide (a transform, a refinement without a zod-free
       * function): any value here is "not sure". `inner` is the schema a key path is followed
       * through, as the zod schema walk does.
       */
      readonly kind: "unsure";
      readonly why: string;
      readonly inner?: ConfigNode;
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

function readString(checks: readonly StringCheck[], value: unknown): ReadResult {
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
      const refine = CONFIG_CHECKS.refinements[check.refine] as (value: string) => unknown;
      if (!refine(text)) return NOT_SURE;
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

function readObject(node: Extract<ConfigNode, { kind: "object" }>, value: unknown): ReadResult {
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
    const read = readConfigValue(child, given);
    if (!read.ok) return NOT_SURE;
    if (read.value !== undefined) result[key] = read.value;
  }
  for (const name of node.rules ?? []) {
    const rule = CONFIG_CHECKS.rules[name] as (value: unknown) => readonly unknown[];
    if (rule(result).length > 0) return NOT_SURE;
  }
  return ok(result);
}

function readArray(node: Extract<ConfigNode, { kind: "array" }>, value: unknown): ReadResult {
  if (!Array.isArray(value)) return NOT_SURE;
  if (node.minLength !== undefined && value.length < node.minLength) return NOT_SURE;
  if (node.maxLength !== undefined && value.length > node.maxLength) return NOT_SURE;
  const result: unknown[] = [];
  for (const item of value) {
    const read = readConfigValue(node.element, item);
    if (!read.ok) return NOT_SURE;
    result.push(read.value);
  }
  return ok(result);
}

function readRecord(node: Extract<ConfigNode, { kind: "record" }>, value: unknown): ReadResult {
  if (!isPlainObject(value)) return NOT_SURE;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === "__proto__" || item === undefined) return NOT_SURE;
    const readKey = readConfigValue(node.key, key);
    if (!readKey.ok || readKey.value !== key) return NOT_SURE;
    const read = readConfigValue(node.value, item);
    if (!read.ok) return NOT_SURE;
    result[key] = read.value;
  }
  return ok(result);
}

/**
 * Reads `value` (plain data: parsed YAML, JSON, or values from the environment) with `node`:
 * what the zod schema `node` was generated from returns for it, or "not sure".
 */
export function readConfigValue(node: ConfigNode, value: unknown): ReadResult {
  switch (node.kind) {
    case "object":
      return readObject(node, value);
    case "string":
      return readString(node.checks, value);
    case "number":
      return readNumber(node.checks, value);
    case "boolean":
      return typeof value === "boolean" ? ok(value) : NOT_SURE;
    case "literal":
      return node.values.includes(value as string) ? ok(value) : NOT_SURE;
    case "array":
      return readArray(node, value);
    case "record":
      return readRecord(node, value);
    case "union":
      for (const option of node.options) {
        const read = readConfigValue(option, value);
        if (read.ok) return read;
      }
      return NOT_SURE;
    case "unknown":
      return ok(value);
    case "default":
      if (value === undefined) return ok(structuredClone(node.value));
      return readConfigValue(node.inner, value);
    case "prefault":
      return readConfigValue(node.inner, value === undefined ? structuredClone(node.value) : value);
    case "optional":
      return value === undefined ? ok(undefined) : readConfigValue(node.inner, value);
    case "nullable":
      return value === null ? ok(null) : readConfigValue(node.inner, value);
    case "preprocess": {
      let prepared: unknown;
      try {
        prepared = (CONFIG_CHECKS.preprocess[node.step] as (value: unknown) => unknown)(value);
      } catch {
        return NOT_SURE;
      }
      return readConfigValue(node.inner, prepared);
    }
    case "unsure":
      return NOT_SURE;
  }
}

/** The node without its wrappers (default, optional, preprocess, ...), as `innermostSchema`. */
export function innermostNode(node: ConfigNode): ConfigNode {
  let current = node;
  while (
    current.kind === "default" ||
    current.kind === "prefault" ||
    current.kind === "optional" ||
    current.kind === "nullable" ||
    current.kind === "preprocess" ||
    (current.kind === "unsure" && current.inner !== undefined)
  ) {
    current = current.inner as ConfigNode;
  }
  return current;
}

/** The node of the key or index `segment` inside `node`, as `childSchema` finds it. */
export function childNode(node: ConfigNode, segment: string | number): ConfigNode | undefined {
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
  root: ConfigNode,
  segments: readonly (string | number)[],
): ConfigNode | undefined {
  let current: ConfigNode | undefined = root;
  for (const segment of segments) {
    if (current === undefined) return undefined;
    current = childNode(current, segment);
  }
  return current;
}

/** Whether a value of `node` is a leaf: not an object with keys of its own. */
export function isLeafNode(node: ConfigNode): boolean {
  return innermostNode(node).kind !== "object";
}
