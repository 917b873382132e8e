/**
 * Writes `config-reader.generated.ts` from `runtimeConfigSchema`: the table the zod-free
 * configuration reader interprets (`config-reader.ts`), the environment variables derived
 * from the schema's leaf keys, and the keys whose values are paths the loader resolves.
 * The build runs it (`generate-config-reader.ts`) and a test fails when the file is
 * not what it gives. Whatever it cannot write down exactly becomes "unsure", so the reader
 * answers "not sure" there and zod decides.
 */
import { isDeepStrictEqual } from "node:util";
import { isResolvedPath, rulesOf } from "@xzatoma/core/config";
import type { z } from "zod";
import { environmentVariableOf } from "../config-loader/env-names.js";
import { innermostSchema, leafKeyPaths } from "../config-loader/schema-walk.js";
import { valueKindOf } from "../config-loader/value-kind-of.js";
import { CONFIG_CHECKS } from "./config-checks.js";
import type { ConfigNode, NumberCheck, StringCheck } from "./config-reader.js";
import { runtimeConfigSchema } from "./config-schema.js";

/** The generated file's path inside the package, for messages. */
export const GENERATED_FILE = "src/config/config-reader.generated.ts";
/** What regenerates it. */
export const REGENERATE_COMMAND =
  "cd packages/runtime && node generate-config-reader.ts (the build runs it too)";

interface ZodDef {
  readonly type: string;
  readonly [key: string]: unknown;
}

const defOf = (schema: unknown): ZodDef => (schema as { _zod: { def: ZodDef } })._zod.def;
const checkDefs = (def: ZodDef): Record<string, unknown>[] =>
  ((def["checks"] as { _zod: { def: Record<string, unknown> } }[] | undefined) ?? []).map(
    (check) => check._zod.def,
  );

function nameOf<T extends Record<string, unknown>>(
  table: T,
  fn: unknown,
): (keyof T & string) | undefined {
  return (Object.keys(table) as (keyof T & string)[]).find((name) => table[name] === fn);
}

function unsure(why: string, inner?: ConfigNode): ConfigNode {
  return inner === undefined ? { kind: "unsure", why } : { kind: "unsure", why, inner };
}

/** A default that survives being written as JSON, or undefined. */
function jsonValue(value: unknown): { value: unknown } | undefined {
  try {
    const copy = JSON.parse(JSON.stringify(value)) as unknown;
    return isDeepStrictEqual(copy, value) ? { value: copy } : undefined;
  } catch {
    return undefined;
  }
}

function stringNode(def: ZodDef): ConfigNode {
  const checks: StringCheck[] = [];
  for (const check of checkDefs(def)) {
    switch (check["check"]) {
      case "overwrite": {
        const tx = check["tx"] as (value: string) => string;
        // zod's .trim() is the only overwrite the configuration uses.
        if (!/\.trim\(\)/.test(String(tx)) || tx(" \ta\n ") !== "a") {
          return unsure("a string overwrite other than trim");
        }
        checks.push({ trim: true });
        break;
      }
      case "min_length":
        checks.push({ minLength: check["minimum"] as number });
        break;
      case "max_length":
        checks.push({ maxLength: check["maximum"] as number });
        break;
      case "string_format": {
        const pattern = check["pattern"];
        if (check["format"] !== "regex" || !(pattern instanceof RegExp)) {
          return unsure(`the string format ${String(check["format"])}`);
        }
        checks.push({ pattern: pattern.source, flags: pattern.flags });
        break;
      }
      case "custom": {
        const name = nameOf(CONFIG_CHECKS.refinements, check["fn"]);
        if (name === undefined) return unsure("a refinement without a zod-free function");
        checks.push({ refine: name });
        break;
      }
      default:
        return unsure(`the string check ${String(check["check"])}`);
    }
  }
  return { kind: "string", checks };
}

function numberNode(def: ZodDef): ConfigNode {
  const checks: NumberCheck[] = [];
  for (const check of checkDefs(def)) {
    if (check["check"] === "number_format" && check["format"] === "safeint") {
      checks.push({ int: true });
    } else if (check["check"] === "greater_than") {
      checks.push({ min: check["value"] as number, inclusive: check["inclusive"] === true });
    } else if (check["check"] === "less_than") {
      checks.push({ max: check["value"] as number, inclusive: check["inclusive"] === true });
    } else {
      return unsure(`the number check ${String(check["check"])}`);
    }
  }
  return { kind: "number", checks };
}

function objectNode(schema: z.ZodType, def: ZodDef): ConfigNode {
  const catchall = def["catchall"] === undefined ? undefined : defOf(def["catchall"]).type;
  if (catchall !== undefined && catchall !== "never") return unsure(`a catchall of ${catchall}`);
  const keys: Record<string, ConfigNode> = {};
  for (const [key, child] of Object.entries(def["shape"] as Record<string, z.ZodType>)) {
    keys[key] = nodeOf(child);
  }
  const node = {
    kind: "object" as const,
    keys,
    unknownKeys: catchall === "never" ? ("strict" as const) : ("strip" as const),
  };
  const checks = checkDefs(def);
  if (checks.length === 0) return node;
  const rules = rulesOf(schema).map((rule) => nameOf(CONFIG_CHECKS.rules, rule));
  if (
    rules.length !== checks.length ||
    checks.some((check) => check["check"] !== "custom") ||
    rules.some((name) => name === undefined)
  ) {
    return unsure("a rule across keys without a zod-free function", node);
  }
  return { ...node, rules: rules as (keyof typeof CONFIG_CHECKS.rules)[] };
}

/** The table entry of one zod schema. */
export function nodeOf(schema: z.ZodType): ConfigNode {
  const def = defOf(schema);
  const node = plainNodeOf(schema, def);
  const checked = !["string", "number", "object", "array"].includes(def.type);
  // A refinement of a default, a union, ...: the key path still leads through it.
  if (checked && checkDefs(def).length > 0) return unsure(`checks on a ${def.type}`, node);
  return node;
}

function plainNodeOf(schema: z.ZodType, def: ZodDef): ConfigNode {
  switch (def.type) {
    case "object":
      return objectNode(schema, def);
    case "string":
      return stringNode(def);
    case "number":
      return numberNode(def);
    case "boolean":
      return { kind: "boolean" };
    case "enum":
      return { kind: "literal", values: Object.values(def["entries"] as Record<string, string>) };
    case "literal":
      return { kind: "literal", values: def["values"] as (string | number | boolean | null)[] };
    case "array": {
      let minLength: number | undefined;
      let maxLength: number | undefined;
      for (const check of checkDefs(def)) {
        if (check["check"] === "min_length") minLength = check["minimum"] as number;
        else if (check["check"] === "max_length") maxLength = check["maximum"] as number;
        else return unsure(`the array check ${String(check["check"])}`);
      }
      return {
        kind: "array",
        element: nodeOf(def["element"] as z.ZodType),
        ...(minLength === undefined ? {} : { minLength }),
        ...(maxLength === undefined ? {} : { maxLength }),
      };
    }
    case "record":
      return {
        kind: "record",
        key: nodeOf(def["keyType"] as z.ZodType),
        value: nodeOf(def["valueType"] as z.ZodType),
      };
    case "union":
      return {
        kind: "union",
        options: (def["options"] as z.ZodType[]).map((option) => nodeOf(option)),
      };
    case "unknown":
      return { kind: "unknown" };
    case "default":
    case "prefault": {
      const inner = nodeOf(def["innerType"] as z.ZodType);
      const value = jsonValue(def["defaultValue"]);
      if (value === undefined) return unsure(`a ${def.type} that is not plain data`, inner);
      return { kind: def.type, inner, value: value.value };
    }
    case "optional":
    case "nullable":
      return { kind: def.type, inner: nodeOf(def["innerType"] as z.ZodType) };
    case "pipe": {
      const input = def["in"] as z.ZodType;
      const output = def["out"] as z.ZodType;
      if (defOf(output).type === "transform") return unsure("a transform", nodeOf(input));
      if (defOf(input).type !== "transform") return unsure("a pipe", nodeOf(output));
      const step = nameOf(CONFIG_CHECKS.preprocess, defOf(input)["transform"]);
      if (step === undefined) {
        return unsure("a preprocess without a zod-free function", nodeOf(output));
      }
      return { kind: "preprocess", step, inner: nodeOf(output) };
    }
    default:
      return unsure(`a ${def.type}`);
  }
}

/** Every leaf key whose schema is a `resolvedPath()`, in the schema's order. */
function resolvedPathKeys(root: z.ZodType): string[] {
  return leafKeyPaths(root)
    .filter(({ schema }) => isResolvedPath(schema))
    .map(({ keyPath }) => keyPath);
}

/** One environment variable per leaf key whose value text can hold, in the schema's order. */
function derivedEnvMappings(root: z.ZodType) {
  const mappings: { variable: string; key: string; kind: string; origin: "derived" }[] = [];
  for (const { keyPath, schema } of leafKeyPaths(root)) {
    const kind = valueKindOf(innermostSchema(schema));
    if (kind === undefined) continue;
    mappings.push({
      variable: environmentVariableOf(keyPath),
      key: keyPath,
      kind,
      origin: "derived",
    });
  }
  return mappings;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The text of `config-reader.generated.ts` for `root` (the composed schema by default). */
export function configReaderSource(root: z.ZodType = runtimeConfigSchema): string {
  return [
    "// Generated from runtimeConfigSchema by src/config/generate-config-reader.ts. Do not edit:",
    "// `node generate-config-reader.ts` in packages/runtime (the build runs it) rewrites",
    "// it, and config-reader.test.ts fails when it is not what the schemas give.",
    'import type { EnvMapping } from "../config-loader/env-mapping.js";',
    'import type { ConfigNode } from "./config-reader.js";',
    "",
    "/** The composed configuration schema, as the zod-free reader reads it. */",
    `export const CONFIG_NODE: ConfigNode = ${json(nodeOf(root))};`,
    "",
    "/** One environment variable per leaf key of the schema whose value text can hold. */",
    `export const DERIVED_ENV_MAPPINGS: readonly EnvMapping[] = ${json(derivedEnvMappings(root))};`,
    "",
    "/** Keys whose values are paths: `~` is expanded and relative paths are made absolute. */",
    `export const PATH_KEYS: readonly string[] = ${json(resolvedPathKeys(root))};`,
    "",
  ].join("\n");
}
