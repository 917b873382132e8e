import type {
  LanguageModelV4,
  LanguageModelV4Middleware,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import { wrapLanguageModel } from "./middleware.js";

/** A tool call recovered from text. */
export interface RecoveredToolCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

function candidates(text: string): string[] {
  const trimmed = text.trim();
  const found: string[] = [];
  for (const match of trimmed.matchAll(/<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g))
    found.push(match[1] ?? "");
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(trimmed);
  if (fenced) found.push(fenced[1] ?? "");
  if (found.length === 0) found.push(trimmed);
  return found;
}

/** A tool's JSON Schema as far as the check below reads it. */
interface ArgumentsSchema {
  readonly properties?: Readonly<Record<string, { readonly type?: unknown }>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: unknown;
}

function fitsType(value: unknown, type: unknown): boolean {
  const types = Array.isArray(type) ? (type as unknown[]) : [type];
  return types.some((each) => {
    switch (each) {
      case undefined:
        return true;
      case "string":
        return typeof value === "string";
      case "number":
        return typeof value === "number";
      case "integer":
        return Number.isInteger(value);
      case "boolean":
        return typeof value === "boolean";
      case "array":
        return Array.isArray(value);
      case "object":
        return value !== null && typeof value === "object" && !Array.isArray(value);
      case "null":
        return value === null;
      default:
        return true;
    }
  });
}

/**
 * True when `input` has every required argument, no argument the schema closes out, and
 * each argument of the type the schema names. A shallow check: enough to tell a call from
 * JSON that merely names a tool; the tool registry validates the call fully.
 */
export function argumentsFitSchema(
  input: Readonly<Record<string, unknown>>,
  schema: ArgumentsSchema | undefined,
): boolean {
  if (!schema) return true;
  const properties = schema.properties ?? {};
  if ((schema.required ?? []).some((name) => !(name in input))) return false;
  for (const [name, value] of Object.entries(input)) {
    const property = properties[name];
    if (!property) {
      if (schema.additionalProperties === false) return false;
      continue;
    }
    if (!fitsType(value, property.type)) return false;
  }
  return true;
}

/**
 * `input` without the optional arguments a model set to `null` where the schema does not
 * allow null: small models write `"end_line": null` for an argument they leave out, which
 * the tool would refuse. Required arguments and those whose type allows null are kept.
 */
export function withoutNullOptionals(
  input: Readonly<Record<string, unknown>>,
  schema: ArgumentsSchema | undefined,
): Record<string, unknown> {
  if (!schema) return { ...input };
  const required = new Set(schema.required ?? []);
  const properties = schema.properties ?? {};
  return Object.fromEntries(
    Object.entries(input).filter(
      ([name, value]) =>
        value !== null ||
        required.has(name) ||
        properties[name] === undefined ||
        fitsType(null, properties[name]?.type),
    ),
  );
}

function asCall(value: unknown, toolNames: ReadonlySet<string>): RecoveredToolCall | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const fn = (record["function"] ?? record) as Record<string, unknown>;
  const name = fn["name"];
  let input: unknown = fn["arguments"] ?? fn["parameters"] ?? fn["input"] ?? {};
  if (typeof input === "string") {
    try {
      input = JSON.parse(input) as unknown;
    } catch {
      return undefined;
    }
  }
  if (typeof name !== "string" || !toolNames.has(name)) return undefined;
  if (input === null || typeof input !== "object" || Array.isArray(input)) return undefined;
  return { name, input: input as Record<string, unknown> };
}

/** The calls of `candidate` (one answer-sized piece of text), or [] when it is not one. */
function callsOf(
  candidate: string,
  toolNames: ReadonlySet<string>,
  schemas: ReadonlyMap<string, ArgumentsSchema> | undefined,
): RecoveredToolCall[] {
  let value: unknown;
  try {
    value = JSON.parse(candidate);
  } catch {
    return [];
  }
  const calls: RecoveredToolCall[] = [];
  for (const item of Array.isArray(value) ? value : [value]) {
    const found = asCall(item, toolNames);
    if (!found) return [];
    const schema = schemas?.get(found.name);
    const call = { name: found.name, input: withoutNullOptionals(found.input, schema) };
    if (schemas && !argumentsFitSchema(call.input, schema)) return [];
    calls.push(call);
  }
  return calls;
}

/** The answer is the call: JSON alone, in one fence, or in `<tool_call>` tags. */
function wholeAnswerCalls(
  text: string,
  toolNames: ReadonlySet<string>,
  schemas: ReadonlyMap<string, ArgumentsSchema> | undefined,
): RecoveredToolCall[] {
  const calls: RecoveredToolCall[] = [];
  for (const candidate of candidates(text)) {
    const found = callsOf(candidate, toolNames, schemas);
    if (found.length === 0) return [];
    calls.push(...found);
  }
  return calls;
}

/**
 * The end of the JSON object that opens at `start` (the index after its closing brace),
 * or -1 when its braces do not balance. Braces inside JSON strings do not count.
 */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth += 1;
    else if (char === "}") {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/** The JSON values written in `text`: each fenced block's content, and the bare objects outside fences. */
function jsonValuesIn(text: string): unknown[] {
  const values: unknown[] = [];
  const fence = /```[\w-]*[^\S\n]*\n?([\s\S]*?)```/g;
  for (const match of text.matchAll(fence)) {
    try {
      values.push(JSON.parse(match[1] ?? ""));
    } catch {
      // A fenced block that is not JSON (code, a shell command) is not a call.
    }
  }
  const prose = text.replace(fence, " ");
  for (let index = prose.indexOf("{"); index !== -1; index = prose.indexOf("{", index + 1)) {
    const end = objectEnd(prose, index);
    if (end === -1) break;
    try {
      values.push(JSON.parse(prose.slice(index, end)));
      index = end - 1;
    } catch {
      // Braces in prose that are not JSON: look at the next one.
    }
  }
  return values;
}

/**
 * A call written inside prose: the answer's only JSON value (fenced or bare) that names an
 * offered tool, with arguments that fit its schema. Two such values, or one whose arguments
 * do not fit, leave the answer text.
 */
function callInProse(
  text: string,
  toolNames: ReadonlySet<string>,
  schemas: ReadonlyMap<string, ArgumentsSchema>,
): RecoveredToolCall[] {
  const named = jsonValuesIn(text).flatMap((value) =>
    (Array.isArray(value) ? value : [value]).flatMap((item) => {
      const found = asCall(item, toolNames);
      return found ? [found] : [];
    }),
  );
  if (named.length !== 1) return [];
  const [found] = named as [RecoveredToolCall];
  const schema = schemas.get(found.name);
  const call = { name: found.name, input: withoutNullOptionals(found.input, schema) };
  return argumentsFitSchema(call.input, schema) ? [call] : [];
}

/**
 * Recognises a tool call that a model wrote as text instead of a structured call: a JSON
 * object `{"name", "arguments"|"parameters"}` (alone, in a ```json fence, or a list of
 * them), or Hermes/Qwen-style `<tool_call>{...}</tool_call>` tags. Only names of tools
 * offered in the request count; anything else stays text.
 *
 * With `schemas` (the offered tools' input schemas), a call inside prose counts too: the
 * answer's only JSON object, fenced or bare, that names an offered tool with arguments
 * fitting its schema. Small models write "To read it, call: ```json {...}``` This will
 * return ..."; prose that only mentions JSON, or shows JSON naming no offered tool, stays text.
 */
export function parseTextToolCalls(
  text: string,
  toolNames: ReadonlySet<string>,
  schemas?: ReadonlyMap<string, ArgumentsSchema>,
): RecoveredToolCall[] {
  return recoverCalls(text, toolNames, schemas).calls;
}

function recoverCalls(
  text: string,
  toolNames: ReadonlySet<string>,
  schemas: ReadonlyMap<string, ArgumentsSchema> | undefined,
): { calls: RecoveredToolCall[]; inProse: boolean } {
  const whole = wholeAnswerCalls(text, toolNames, schemas);
  if (whole.length > 0 || !schemas) return { calls: whole, inProse: false };
  return { calls: callInProse(text, toolNames, schemas), inProse: true };
}

const LOOKS_LIKE_CALL = /^\s*(\{|\[|<tool_call>|```)/;

/** Options of {@link withTextToolCalls}. */
export interface TextToolCallOptions {
  /**
   * Recover a call only when its arguments fit the tool's input schema (required arguments
   * present, their types right); otherwise the text stays an answer. For small models,
   * which write example JSON more often than a large one does. Default false.
   */
  readonly requireValidArguments?: boolean;
}

/**
 * Middleware that makes a streamed response whose text is a tool call a real tool call.
 * Text that might be a call is held back until the response ends; ordinary text streams
 * through unchanged. With `requireValidArguments`, a call inside prose counts too (see
 * {@link parseTextToolCalls}): the prose stays the answer's text and the call follows it.
 */
export function textToolCallsMiddleware(
  options: TextToolCallOptions = {},
): LanguageModelV4Middleware {
  return {
    specificationVersion: "v4",
    async wrapStream({ doStream, params: callOptions }) {
      const result = await doStream();
      const functions = (callOptions.tools ?? []).flatMap((tool) =>
        tool.type === "function" ? [tool] : [],
      );
      const toolNames = new Set(functions.map((tool) => tool.name));
      const schemas = options.requireValidArguments
        ? new Map(functions.map((tool) => [tool.name, tool.inputSchema as ArgumentsSchema]))
        : undefined;
      if (toolNames.size === 0) return result;
      let held: LanguageModelV4StreamPart[] | undefined = [];
      let text = "";
      let sawToolCall = false;
      const release = (controller: TransformStreamDefaultController<LanguageModelV4StreamPart>) => {
        for (const part of held ?? []) controller.enqueue(part);
        held = undefined;
      };
      const stream = result.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            if (part.type === "tool-call") sawToolCall = true;
            if (part.type === "text-delta") text += part.delta;
            if (part.type === "finish" && !sawToolCall) {
              const { calls, inProse } = recoverCalls(text, toolNames, schemas);
              if (calls.length > 0) {
                // An answer that is the call is replaced by it; prose around a call stays
                // the answer's text, with the call after it.
                if (inProse) release(controller);
                held = undefined;
                calls.forEach((call, index) =>
                  controller.enqueue({
                    type: "tool-call",
                    toolCallId: `text-call-${Date.now().toString(36)}-${index}`,
                    toolName: call.name,
                    input: JSON.stringify(call.input),
                  }),
                );
                controller.enqueue({
                  ...part,
                  finishReason: { unified: "tool-calls", raw: part.finishReason.raw },
                });
                return;
              }
            }
            const isText =
              part.type === "text-start" || part.type === "text-delta" || part.type === "text-end";
            if (held === undefined || !isText) {
              if (part.type === "finish") release(controller);
              controller.enqueue(part);
              return;
            }
            held.push(part);
            if (part.type === "text-delta" && !LOOKS_LIKE_CALL.test(text) && text.trim() !== "") {
              release(controller);
            }
          },
          flush(controller) {
            release(controller);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}

/** `model` with {@link textToolCallsMiddleware}. */
export function withTextToolCalls(
  model: LanguageModelV4,
  options: TextToolCallOptions = {},
): LanguageModelV4 {
  return wrapLanguageModel({ model, middleware: textToolCallsMiddleware(options) });
}
