import type { z } from "zod";
import type { ToolResult } from "./tool-result.js";

/**
 * What a tool may do. The registry asks for approval for anything but `read`;
 * the full approval policy (chat mode x safety mode x execution mode) builds on this.
 */
export type ToolAccess = "read" | "write" | "execute" | "network";

/**
 * How risky one call is, judged by the tool from its input before anything runs:
 * `allow` (plainly safe), `confirm` (a person should say yes), `block` (never runs).
 * The approval policy combines it with the chat, safety and execution modes.
 */
export type ToolVerdict = "allow" | "confirm" | "block";

/** A tool's judgement of one call. */
export interface ToolAssessment {
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
}

/** Progress a long-running tool reports while it works. */
export interface ToolProgress {
  readonly message: string;
}

/** What a tool receives besides its input. */
export interface ToolExecutionContext {
  /** Aborted when the run is cancelled or the tool's timeout expires. */
  readonly signal: AbortSignal;
  /** The id of the tool call being executed. */
  readonly toolCallId: string;
  /** Reports progress to whoever renders the run. */
  readonly reportProgress: (progress: ToolProgress) => void;
  /** A person explicitly approved this call (not a mode or policy that lets it run unasked). */
  readonly approvedByPerson?: boolean;
}

/** A tool as the registry holds it. Build one with {@link defineTool}. */
export interface Tool<Input = unknown> {
  readonly name: string;
  /** The text the model reads to decide when and how to call the tool. */
  readonly description: string;
  /** Validates every call's input before `execute` sees it. */
  readonly inputSchema: z.ZodType<Input>;
  /**
   * The JSON Schema the model reads for the input, when the tool gives it ready-made; else
   * the registry converts `inputSchema` (see `toModelInputSchema`). It must describe what
   * `inputSchema` accepts: the registry validates calls with `inputSchema` either way.
   */
  readonly modelInputSchema?: Readonly<Record<string, unknown>>;
  readonly access: ToolAccess;
  /** Overrides the registry's default timeout for this tool, in milliseconds. */
  readonly timeoutMs?: number;
  /**
   * Judges one call before it runs. Without it, `read` tools are `allow` and every other
   * access is `confirm`. A judgement that throws counts as `block`.
   */
  assess?(input: Input): Promise<ToolAssessment> | ToolAssessment;
  execute(input: Input, context: ToolExecutionContext): Promise<ToolResult>;
}

/** The definition passed to {@link defineTool}. */
export interface ToolDefinition<Schema extends z.ZodType> {
  readonly name: string;
  readonly description: string;
  /**
   * The input schema, or a function that builds it: then it is built the first time
   * `inputSchema` is read (the first call, or a registry with no `modelInputSchema`), not
   * when the tool is defined.
   */
  readonly inputSchema: Schema | (() => Schema);
  /** See {@link Tool.modelInputSchema}. */
  readonly modelInputSchema?: Readonly<Record<string, unknown>>;
  readonly access: ToolAccess;
  readonly timeoutMs?: number;
  assess?(input: z.output<Schema>): Promise<ToolAssessment> | ToolAssessment;
  execute(input: z.output<Schema>, context: ToolExecutionContext): Promise<ToolResult>;
}

const TOOL_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/**
 * Defines a tool with a zod input schema. The registry validates input against the
 * schema before `execute` runs, so `execute` receives typed, checked input. Given a
 * function for `inputSchema`, the tool builds its schema on first use.
 *
 * @example
 * const echo = defineTool({
 *   name: "echo",
 *   description: "Repeats the text it is given.",
 *   inputSchema: z.object({ text: z.string() }).strict(),
 *   access: "read",
 *   execute: async ({ text }) => toolSuccess(text),
 * });
 */
export function defineTool<Schema extends z.ZodType>(
  definition: ToolDefinition<Schema>,
): Tool<z.output<Schema>> {
  if (!TOOL_NAME.test(definition.name)) {
    throw new TypeError(
      `Tool name '${definition.name}' is invalid: use a letter followed by up to 63 letters, digits, '_' or '-'.`,
    );
  }
  const { inputSchema } = definition;
  if (typeof inputSchema !== "function") return definition as unknown as Tool<z.output<Schema>>;
  let built: Schema | undefined;
  const tool = { ...definition };
  Object.defineProperty(tool, "inputSchema", {
    enumerable: true,
    get: () => (built ??= (inputSchema as () => Schema)()),
  });
  return tool as unknown as Tool<z.output<Schema>>;
}

/** The judgement of a tool that has no `assess`: reading is fine, anything else asks. */
export function defaultAssessment(tool: Pick<Tool, "name" | "access">): ToolAssessment {
  return tool.access === "read"
    ? { verdict: "allow", reason: `${tool.name} only reads.` }
    : { verdict: "confirm", reason: `${tool.name} has ${tool.access} access.` };
}
