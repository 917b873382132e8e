/**
 * Converts the JSON Schema of a tool's input (as zod's `toJSONSchema` writes it) into the
 * subset node-llama-cpp turns into a grammar, so a local model can only produce input of
 * the right shape.
 *
 * node-llama-cpp makes every listed property required. An optional property therefore
 * becomes "the value or null" here, and {@link dropOptionalNulls} removes the nulls again
 * before the input reaches the tool, so the model can leave it out.
 */

/** A JSON Schema node, loosely typed: the input comes from tool authors. */
type Schema = Readonly<Record<string, unknown>>;

/** The grammar-ready schema: structurally node-llama-cpp's `GbnfJsonSchema`. */
export type GrammarSchema = Readonly<Record<string, unknown>>;

const BASIC_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);
const STRING_FORMATS = new Set(["date-time", "time", "date"]);
const DEFINITIONS = ["$defs", "definitions"] as const;

/** Any JSON value. */
const ANY: GrammarSchema = {
  oneOf: [
    { type: ["string", "number", "boolean", "null"] },
    { type: "array" },
    { type: "object", additionalProperties: true },
  ],
};

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function withDescription(target: Record<string, unknown>, source: Schema): GrammarSchema {
  if (typeof source["description"] === "string") target["description"] = source["description"];
  return target;
}

function copyNumber(target: Record<string, unknown>, source: Schema, key: string): void {
  const value = source[key];
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) target[key] = value;
}

function isPrimitive(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function refName(ref: string): string | undefined {
  for (const prefix of ["#/$defs/", "#/definitions/"]) {
    if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  }
  return undefined;
}

function convert(schema: unknown, depth: number): GrammarSchema {
  if (schema === true || depth > 64) return ANY;
  if (!isSchema(schema)) return ANY;

  const ref = schema["$ref"];
  if (typeof ref === "string") {
    const name = refName(ref);
    return name === undefined ? ANY : withDescription({ $ref: `#/$defs/${name}` }, schema);
  }
  if ("const" in schema && isPrimitive(schema["const"])) {
    return withDescription({ const: schema["const"] }, schema);
  }
  const enumValues = schema["enum"];
  if (Array.isArray(enumValues) && enumValues.length > 0 && enumValues.every(isPrimitive)) {
    return withDescription({ enum: [...enumValues] }, schema);
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      return withDescription(
        { oneOf: options.map((option) => convert(option, depth + 1)) },
        schema,
      );
    }
  }
  const allOf = schema["allOf"];
  if (Array.isArray(allOf) && allOf.length === 1) return convert(allOf[0], depth + 1);

  const type = schema["type"];
  if (Array.isArray(type)) {
    const types = type.filter((item): item is string => typeof item === "string");
    const basic = types.filter((item) => BASIC_TYPES.has(item));
    const structured = types.filter((item) => item === "object" || item === "array");
    if (structured.length === 0 && basic.length > 0) {
      return withDescription({ type: basic.length === 1 ? basic[0] : basic }, schema);
    }
    const options = [
      ...structured.map((item) => convert({ ...schema, type: item }, depth + 1)),
      ...(basic.length > 0 ? [{ type: basic }] : []),
    ];
    return options.length === 0 ? ANY : withDescription({ oneOf: options }, schema);
  }

  switch (type) {
    case "object":
      return convertObject(schema, depth);
    case "array":
      return convertArray(schema, depth);
    case "string": {
      const result: Record<string, unknown> = { type: "string" };
      const format = schema["format"];
      if (typeof format === "string" && STRING_FORMATS.has(format)) {
        result["format"] = format;
      } else {
        copyNumber(result, schema, "minLength");
        copyNumber(result, schema, "maxLength");
      }
      return withDescription(result, schema);
    }
    case "number":
    case "integer":
    case "boolean":
    case "null":
      return withDescription({ type }, schema);
    default:
      return ANY;
  }
}

function grammarAllowsNull(schema: GrammarSchema): boolean {
  const type = schema["type"];
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if ("const" in schema) return schema["const"] === null;
  if (Array.isArray(schema["enum"])) return schema["enum"].includes(null);
  const options = schema["oneOf"];
  return Array.isArray(options) && options.some((option) => grammarAllowsNull(option as Schema));
}

function convertObject(schema: Schema, depth: number): GrammarSchema {
  const properties = isSchema(schema["properties"]) ? schema["properties"] : {};
  const required = new Set(
    Array.isArray(schema["required"])
      ? schema["required"].filter((key): key is string => typeof key === "string")
      : [],
  );
  const converted: Record<string, GrammarSchema> = {};
  for (const [key, value] of Object.entries(properties)) {
    const property = convert(value, depth + 1);
    converted[key] =
      required.has(key) || grammarAllowsNull(property)
        ? property
        : { oneOf: [property, { type: "null" }] };
  }
  const result: Record<string, unknown> = { type: "object", properties: converted };
  const additional = schema["additionalProperties"];
  if (additional === true || (Object.keys(properties).length === 0 && additional === undefined)) {
    result["additionalProperties"] = true;
  } else if (isSchema(additional)) {
    result["additionalProperties"] = convert(additional, depth + 1);
  }
  return withDescription(result, schema);
}

function convertArray(schema: Schema, depth: number): GrammarSchema {
  const result: Record<string, unknown> = { type: "array" };
  const items = schema["items"];
  const prefixItems = Array.isArray(schema["prefixItems"])
    ? schema["prefixItems"]
    : Array.isArray(items)
      ? items
      : undefined;
  if (prefixItems) result["prefixItems"] = prefixItems.map((item) => convert(item, depth + 1));
  if (isSchema(items) || items === true) result["items"] = convert(items, depth + 1);
  copyNumber(result, schema, "minItems");
  copyNumber(result, schema, "maxItems");
  return withDescription(result, schema);
}

/**
 * The grammar-ready form of a tool's JSON Schema. Keywords the grammar cannot express
 * (`pattern`, `minimum`, ...) are dropped: the tool registry still validates the input
 * against the full schema before the tool runs.
 */
export function toGrammarSchema(schema: unknown): GrammarSchema {
  const root = convert(schema, 0);
  if (!isSchema(schema)) return root;
  const defs: Record<string, GrammarSchema> = {};
  for (const key of DEFINITIONS) {
    const group = schema[key];
    if (!isSchema(group)) continue;
    for (const [name, definition] of Object.entries(group)) defs[name] = convert(definition, 1);
  }
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: defs };
}

function allowsNull(schema: unknown, root: Schema, depth: number): boolean {
  if (schema === true || !isSchema(schema) || depth > 64) return true;
  if (Object.keys(schema).length === 0) return true;
  const ref = typeof schema["$ref"] === "string" ? refName(schema["$ref"]) : undefined;
  if (ref !== undefined) return allowsNull(resolveRef(root, ref), root, depth + 1);
  if ("const" in schema) return schema["const"] === null;
  if (Array.isArray(schema["enum"])) return schema["enum"].includes(null);
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options))
      return options.some((option) => allowsNull(option, root, depth + 1));
  }
  const type = schema["type"];
  if (Array.isArray(type)) return type.includes("null");
  return type === undefined || type === "null";
}

function resolveRef(root: Schema, name: string): unknown {
  for (const key of DEFINITIONS) {
    const group = root[key];
    if (isSchema(group) && name in group) return group[name];
  }
  return undefined;
}

function drop(value: unknown, schema: unknown, root: Schema, depth: number): unknown {
  if (!isSchema(schema) || depth > 64) return value;
  const ref = typeof schema["$ref"] === "string" ? refName(schema["$ref"]) : undefined;
  if (ref !== undefined) return drop(value, resolveRef(root, ref), root, depth + 1);
  if (Array.isArray(value)) {
    const items = schema["items"];
    return isSchema(items) ? value.map((item) => drop(item, items, root, depth + 1)) : value;
  }
  if (!isSchema(value)) return value;
  const properties = isSchema(schema["properties"]) ? schema["properties"] : undefined;
  if (!properties) {
    for (const key of ["anyOf", "oneOf"] as const) {
      const options = schema[key];
      const object = Array.isArray(options) ? options.find(isSchema) : undefined;
      if (object && isSchema(object["properties"])) return drop(value, object, root, depth + 1);
    }
    return value;
  }
  const required = new Set(Array.isArray(schema["required"]) ? schema["required"] : []);
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const property = properties[key];
    if (item === null && !required.has(key) && !allowsNull(property, root, 0)) continue;
    result[key] = drop(item, property, root, depth + 1);
  }
  return result;
}

/**
 * Removes the `null` the grammar put in place of an optional property the model left
 * out, where the original schema does not allow null there.
 */
export function dropOptionalNulls(value: unknown, schema: unknown): unknown {
  return isSchema(schema) ? drop(value, schema, schema, 0) : value;
}
