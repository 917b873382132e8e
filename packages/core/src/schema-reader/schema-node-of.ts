/**
 * The generator of the zod-free schema reader's tables: walks a zod schema's own definitions
 * and writes down a {@link SchemaNode} (`schema-reader.ts`). Whatever it cannot write down
 * exactly becomes "unsure", so the reader answers "not sure" there and zod decides. It imports
 * zod's types only, and is exported from `@xzatoma/core/config`, never from the main entry:
 * builds and tests run it, a program reads the tables it wrote.
 */
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import { rulesOf } from "../config-fields.js";
import type { NumberCheck, SchemaChecks, SchemaNode, StringCheck } from "./schema-reader.js";
import { NO_SCHEMA_CHECKS } from "./schema-reader.js";

interface ZodDef {
  readonly type: string;
  readonly [key: string]: unknown;
}

const defOf = (schema: unknown): ZodDef => (schema as { _zod: { def: ZodDef } })._zod.def;
const checkDefs = (def: ZodDef): Record<string, unknown>[] =>
  ((def["checks"] as { _zod: { def: Record<string, unknown> } }[] | undefined) ?? []).map(
    (check) => check._zod.def,
  );

function nameOf(table: Readonly<Record<string, unknown>>, fn: unknown): string | undefined {
  return Object.keys(table).find((name) => table[name] === fn);
}

function unsure(why: string, inner?: SchemaNode): SchemaNode {
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

class Generator {
  constructor(private readonly fns: SchemaChecks) {}

  stringNode(def: ZodDef): SchemaNode {
    const checks: StringCheck[] = [];
    for (const check of checkDefs(def)) {
      switch (check["check"]) {
        case "overwrite": {
          const tx = check["tx"] as (value: string) => string;
          // zod's .trim() is the only overwrite the reader knows.
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
          const name = nameOf(this.fns.refinements, check["fn"]);
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

  numberNode(def: ZodDef): SchemaNode {
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

  objectNode(schema: z.ZodType, def: ZodDef): SchemaNode {
    const catchall = def["catchall"] === undefined ? undefined : defOf(def["catchall"]).type;
    if (catchall !== undefined && catchall !== "never") return unsure(`a catchall of ${catchall}`);
    const keys: Record<string, SchemaNode> = {};
    for (const [key, child] of Object.entries(def["shape"] as Record<string, z.ZodType>)) {
      keys[key] = this.nodeOf(child);
    }
    const node = {
      kind: "object" as const,
      keys,
      unknownKeys: catchall === "never" ? ("strict" as const) : ("strip" as const),
    };
    const checks = checkDefs(def);
    if (checks.length === 0) return node;
    const rules = rulesOf(schema).map((rule) => nameOf(this.fns.rules, rule));
    if (
      rules.length !== checks.length ||
      checks.some((check) => check["check"] !== "custom") ||
      rules.some((name) => name === undefined)
    ) {
      return unsure("a rule across keys without a zod-free function", node);
    }
    return { ...node, rules: rules as string[] };
  }

  nodeOf(schema: z.ZodType): SchemaNode {
    const def = defOf(schema);
    const node = this.plainNodeOf(schema, def);
    const checked = !["string", "number", "object", "array"].includes(def.type);
    // A refinement of a default, a union, ...: the key path still leads through it.
    if (checked && checkDefs(def).length > 0) return unsure(`checks on a ${def.type}`, node);
    return node;
  }

  plainNodeOf(schema: z.ZodType, def: ZodDef): SchemaNode {
    switch (def.type) {
      case "object":
        return this.objectNode(schema, def);
      case "string":
        return this.stringNode(def);
      case "number":
        return this.numberNode(def);
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
          element: this.nodeOf(def["element"] as z.ZodType),
          ...(minLength === undefined ? {} : { minLength }),
          ...(maxLength === undefined ? {} : { maxLength }),
        };
      }
      case "record":
        return {
          kind: "record",
          key: this.nodeOf(def["keyType"] as z.ZodType),
          value: this.nodeOf(def["valueType"] as z.ZodType),
        };
      case "union":
        return {
          kind: "union",
          options: (def["options"] as z.ZodType[]).map((option) => this.nodeOf(option)),
        };
      case "unknown":
        return { kind: "unknown" };
      case "default":
      case "prefault": {
        const inner = this.nodeOf(def["innerType"] as z.ZodType);
        const value = jsonValue(def["defaultValue"]);
        if (value === undefined) return unsure(`a ${def.type} that is not plain data`, inner);
        return { kind: def.type, inner, value: value.value };
      }
      case "optional":
      case "nullable":
        return { kind: def.type, inner: this.nodeOf(def["innerType"] as z.ZodType) };
      case "pipe": {
        const input = def["in"] as z.ZodType;
        const output = def["out"] as z.ZodType;
        if (defOf(output).type === "transform") return unsure("a transform", this.nodeOf(input));
        if (defOf(input).type !== "transform") return unsure("a pipe", this.nodeOf(output));
        const step = nameOf(this.fns.preprocess, defOf(input)["transform"]);
        if (step === undefined) {
          return unsure("a preprocess without a zod-free function", this.nodeOf(output));
        }
        return { kind: "preprocess", step, inner: this.nodeOf(output) };
      }
      default:
        return unsure(`a ${def.type}`);
    }
  }
}

/**
 * The table the zod-free reader (`readSchemaValue`) reads `schema` with. `fns` holds the
 * zod-free functions the schema's refinements, rules and preprocess steps are made of (found
 * by identity); one that is not there makes its part of the table "unsure".
 */
export function schemaNodeOf(schema: z.ZodType, fns: SchemaChecks = NO_SCHEMA_CHECKS): SchemaNode {
  return new Generator(fns).nodeOf(schema);
}
