import type { ApprovalAccess, ApprovalVerdict } from "@xzatoma/safety";
import type { z } from "zod";
import { toModelInputSchema } from "./model-input-schema.js";
import {
  readSchemaValue,
  type ReadResult,
  type SchemaChecks,
  type SchemaNode,
} from "./schema-reader/schema-reader.js";
import type { ToolResult } from "./tool-result.js";

/**
 * What a tool may do: `ApprovalAccess` of `@xzatoma/safety`, the one approval vocabulary.
 * The registry asks for approval for anything but `read`; the approval policy (the chat mode
 * and the approval policy, `decideApproval`) builds on this.
 */
export type ToolAccess = ApprovalAccess;

/**
 * How risky one call is, judged by the tool from its input before anything runs:
 * `allow` (plainly safe), `confirm` (a person should say yes), `block` (never runs).
 * `ApprovalVerdict` of `@xzatoma/safety`; the approval policy combines it with the modes.
 */
export type ToolVerdict = ApprovalVerdict;

/**
 * A tool's judgement of one call. `Facts` is what the judgement found out that the call's
 * execution needs (see {@link ToolAssessment.facts}).
 */
export interface ToolAssessment<Facts = unknown> {
  readonly verdict: ToolVerdict;
  /** Why, in one sentence a person or the model can act on. */
  readonly reason: string;
  /** Exactly what will happen, as shown to the person asked to confirm (a command, a diff summary). */
  readonly summary?: string;
  /**
   * Only a person's explicit yes may let this call run (an escalation: writing files that
   * make other programs run code, writing `.git`, network for a command, sending data out
   * after secrets were read). The registry refuses such a call unless the approval says a
   * person gave it.
   */
  readonly requiresPerson?: boolean;
  /**
   * The call is provably read-only although the tool may change things (a `terminal`
   * command the command policy found `direct`): the `untrusted` approval policy does not
   * ask about it.
   */
  readonly readOnly?: boolean;
  /**
   * What the judgement established that the execution must hold to (the escalations a
   * command was judged with, that a destination was free). Never shown to anyone: the
   * registry hands it to `execute` with the rest of the judgement
   * ({@link ToolExecutionContext.assessment}).
   */
  readonly facts?: Facts;
  /**
   * The input the call runs with, when the judgement replaced the one given (a `PreToolUse`
   * hook's rewrite, already valid for the tool's schema): the approval request shows it, the
   * audit records it and `execute` receives it.
   */
  readonly input?: unknown;
}

/** Progress a long-running tool reports while it works. */
export interface ToolProgress {
  readonly message: string;
}

/** What a tool receives besides its input. */
export interface ToolExecutionContext<Facts = unknown> {
  /** Aborted when the run is cancelled or the tool's timeout expires. */
  readonly signal: AbortSignal;
  /** The id of the tool call being executed. */
  readonly toolCallId: string;
  /** Reports progress to whoever renders the run. */
  readonly reportProgress: (progress: ToolProgress) => void;
  /** A person explicitly approved this call (not a mode or policy that lets it run unasked). */
  readonly approvedByPerson?: boolean;
  /**
   * The judgement the call was allowed by: what `assess` returned for the very input
   * `execute` receives (for an input edited in the approval, the judgement of the edit), or
   * the default judgement of a tool without `assess`. Absent only when `execute` is called
   * without a registry; a tool then acts as if nothing had been established (fail closed).
   */
  readonly assessment?: ToolAssessment<Facts>;
}

/** A JSON Schema, as sent to a model. */
export type JsonSchemaObject = Readonly<Record<string, unknown>>;

/** A tool as the registry holds it. Build one with {@link defineTool}. */
export interface Tool<Input = unknown, Facts = unknown> {
  readonly name: string;
  /** The text the model reads to decide when and how to call the tool. */
  readonly description: string;
  /**
   * The JSON Schema the model reads for the input. It must describe what the input schema
   * accepts: the registry validates every call with the zod schema either way.
   */
  readonly modelInputSchema: JsonSchemaObject;
  /**
   * The zod schema every call's input is validated with, once per call, before `assess` and
   * `execute` see it. Loaded the first time it is asked for (a tool's first call); the same
   * schema after.
   */
  loadInputSchema(): Promise<z.ZodType<Input>>;
  /**
   * Reads a call's input without zod: exactly what the input schema's `parse` returns
   * (defaults filled in, strings trimmed where the schema trims), or "not sure" (`ok: false`),
   * for any input it was not generated to accept. The registry uses its answer when it is sure
   * and otherwise validates with the zod schema, which reports the problems; a tool without it
   * is always validated with zod. Built from a table generated from the zod schema
   * ({@link ToolDefinitionWithLoader.inputNode}), never written by hand.
   */
  readInput?(input: unknown): ReadResult;
  readonly access: ToolAccess;
  /** Overrides the registry's default timeout for this tool, in milliseconds. */
  readonly timeoutMs?: number;
  /**
   * Judges one call before it runs. Without it, `read` tools are `allow` and every other
   * access is `confirm`. A judgement that throws counts as `block`.
   */
  assess?(input: Input): Promise<ToolAssessment<Facts>> | ToolAssessment<Facts>;
  execute(input: Input, context: ToolExecutionContext<Facts>): Promise<ToolResult>;
}

/** What every {@link ToolDefinition} has, whichever way it gives its input schema. */
interface ToolDefinitionBase<Schema extends z.ZodType, Facts> {
  readonly name: string;
  readonly description: string;
  readonly access: ToolAccess;
  readonly timeoutMs?: number;
  assess?(input: z.output<Schema>): Promise<ToolAssessment<Facts>> | ToolAssessment<Facts>;
  execute(input: z.output<Schema>, context: ToolExecutionContext<Facts>): Promise<ToolResult>;
}

/**
 * A tool given its zod schema (or a function that builds it on first use). zod is loaded
 * when the module that defines the tool is: the simple form, for an application's own tools.
 */
export interface ToolDefinitionWithSchema<
  Schema extends z.ZodType,
  Facts = undefined,
> extends ToolDefinitionBase<Schema, Facts> {
  readonly inputSchema: Schema | (() => Schema);
  /** The JSON Schema for the model; computed from `inputSchema` (on first use) when absent. */
  readonly modelInputSchema?: JsonSchemaObject;
}

/**
 * A tool given the JSON Schema the model reads and a function that loads its zod schema
 * (`() => import("./my-tool-input.js").then((module) => module.myToolInput)`), called on the
 * tool's first call: defining and offering the tool loads no zod. The form for packages whose
 * tools are defined on every start; keep the JSON Schema generated from the zod schema.
 */
export interface ToolDefinitionWithLoader<
  Schema extends z.ZodType,
  Facts = undefined,
> extends ToolDefinitionBase<Schema, Facts> {
  readonly modelInputSchema: JsonSchemaObject;
  readonly loadInputSchema: () => Promise<Schema>;
  /**
   * The zod-free reader's table of the input schema (`schemaNodeOf` of `@xzatoma/core/config`,
   * generated by the build and checked by a test): a valid call is then read without loading
   * the zod schema at all ({@link Tool.readInput}).
   */
  readonly inputNode?: SchemaNode;
  /** The zod-free functions `inputNode` names (refinements, rules, preprocess steps). */
  readonly inputChecks?: SchemaChecks;
}

/** The definition passed to {@link defineTool}. */
export type ToolDefinition<Schema extends z.ZodType, Facts = undefined> =
  ToolDefinitionWithSchema<Schema, Facts> | ToolDefinitionWithLoader<Schema, Facts>;

const TOOL_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/**
 * Defines a tool. The registry validates each call's input against the zod schema once,
 * before `assess` judges it and `execute` runs it, so both receive typed, checked input;
 * `execute` receives the judgement too (`context.assessment`, with what `assess` put in
 * `facts`).
 *
 * The input schema is given one of two ways: `inputSchema`, a zod schema or a function that
 * builds one on first use; or `modelInputSchema` (the JSON Schema the model reads,
 * generated from the zod schema) with `loadInputSchema`, a function that imports the zod
 * schema on the tool's first call, so that defining and offering the tool loads no zod.
 *
 * @example
 * const echo = defineTool({
 *   name: "echo",
 *   description: "Repeats the text it is given.",
 *   inputSchema: z.object({ text: z.string() }).strict(),
 *   access: "read",
 *   execute: async ({ text }) => toolSuccess(text),
 * });
 *
 * @example
 * const echo = defineTool({
 *   name: "echo",
 *   description: "Repeats the text it is given.",
 *   modelInputSchema: ECHO_INPUT_JSON_SCHEMA, // generated from echoInput by a build step
 *   loadInputSchema: () => import("./echo-input.js").then((module) => module.echoInput),
 *   access: "read",
 *   execute: async ({ text }) => toolSuccess(text),
 * });
 */
export function defineTool<Schema extends z.ZodType, Facts = undefined>(
  definition: ToolDefinition<Schema, Facts>,
): Tool<z.output<Schema>, Facts> {
  if (!TOOL_NAME.test(definition.name)) {
    throw new TypeError(
      `Tool name '${definition.name}' is invalid: use a letter followed by up to 63 letters, digits, '_' or '-'.`,
    );
  }
  const { name, description, access, timeoutMs, assess, execute } = definition;
  type Input = z.output<Schema>;
  // A schema's output is its own Input: zod's types cannot say so of a generic `Schema`.
  let loaded: Promise<z.ZodType<Input>> | undefined;
  let modelInputSchema: JsonSchemaObject | undefined;
  let load: () => Promise<z.ZodType<Input>>;
  let readInput: ((input: unknown) => ReadResult) | undefined;
  if ("loadInputSchema" in definition) {
    const loader = definition.loadInputSchema;
    load = () => (loaded ??= loader() as Promise<z.ZodType<Input>>);
    modelInputSchema = definition.modelInputSchema;
    const { inputNode, inputChecks } = definition;
    if (inputNode !== undefined) {
      readInput = (input) => readSchemaValue(inputNode, input, inputChecks);
    }
  } else {
    const given = definition.inputSchema;
    let built: Schema | undefined;
    const schema = () =>
      (built ??= typeof given === "function" ? (given as () => Schema)() : given);
    load = () => (loaded ??= Promise.resolve().then(schema) as Promise<z.ZodType<Input>>);
    modelInputSchema = definition.modelInputSchema;
    if (modelInputSchema === undefined) {
      let computed: JsonSchemaObject | undefined;
      const tool: Tool<z.output<Schema>, Facts> = {
        name,
        description,
        access,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        get modelInputSchema() {
          return (computed ??= toModelInputSchema(schema()));
        },
        loadInputSchema: load,
        ...(assess === undefined ? {} : { assess: assess.bind(definition) }),
        execute: execute.bind(definition),
      };
      return tool;
    }
  }
  return {
    name,
    description,
    access,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    modelInputSchema,
    loadInputSchema: load,
    ...(readInput === undefined ? {} : { readInput }),
    ...(assess === undefined ? {} : { assess: assess.bind(definition) }),
    execute: execute.bind(definition),
  };
}

/** The judgement of a tool that has no `assess`: reading is fine, anything else asks. */
export function defaultAssessment(tool: Pick<Tool, "name" | "access">): ToolAssessment<never> {
  return tool.access === "read"
    ? { verdict: "allow", reason: `${tool.name} only reads.` }
    : { verdict: "confirm", reason: `${tool.name} has ${tool.access} access.` };
}
