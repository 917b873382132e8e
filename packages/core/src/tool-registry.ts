import type { ApprovalAnswer, ApprovalQuestion } from "@xzatoma/safety";
import type { z } from "zod";
import { describeError, XzatomaError } from "./errors.js";
import {
  defaultAssessment,
  type Tool,
  type ToolAssessment,
  type ToolProgress,
  type ToolVerdict,
} from "./tool.js";
import type { ReadResult } from "./schema-reader/schema-reader.js";
import { toolFailure, truncateToolResult, type ToolResult } from "./tool-result.js";
import { deepFreeze } from "./deep-freeze.js";

/** Defaults of {@link ToolRegistryOptions}. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
/** 1 MiB: the default of `agent.tools.max_output_size`. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1_048_576;

/** Options of {@link createToolRegistry}. */
export interface ToolRegistryOptions {
  /** Timeout of a tool call unless the tool sets its own. Default 60 s. */
  readonly defaultTimeoutMs?: number;
  /** Output cap per tool call in UTF-8 bytes. Default 1 MiB. */
  readonly maxOutputBytes?: number;
}

/**
 * A tool as the model sees it: name, description and JSON Schema of the input. The schema is
 * a frozen copy of the tool's `modelInputSchema`, made the first time any registry offers it
 * and shared from then on (a service builds a registry for every event).
 */
export interface ToolSpecification {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

/**
 * One call to execute, with its input as the JSON text the model sent (`input`), or as the
 * value already parsed from that text (`parsedInput`), which the registry does not serialise
 * and parse again.
 */
export type ToolCallRequest = {
  readonly toolCallId: string;
  readonly toolName: string;
} & (
  | { readonly input: string; readonly parsedInput?: never }
  | { readonly parsedInput: unknown; readonly input?: never }
);

/**
 * A request for permission to run a tool call that does more than plainly read:
 * `ApprovalQuestion` of `@xzatoma/safety`, the one approval vocabulary. `verdict` is the
 * tool's own judgement (`allow` or `confirm`; `block` never asks), `reason` a sentence (it
 * ends with `.`, `!` or `?`), `summary` what will happen, for the person asked;
 * `requiresPerson` and `readOnly` as in {@link ToolAssessment}.
 */
export type ApprovalRequest = ApprovalQuestion;

/**
 * The answer to an {@link ApprovalRequest}: `ApprovalAnswer` of `@xzatoma/safety`.
 * `reason` is shown to the model when the call is refused; `editedInput` (a corrected
 * command) is validated and judged again, and a `block` still refuses it; `byPerson` marks a
 * person's answer, which calls whose judgement `requiresPerson` need.
 */
export type ApprovalDecision = ApprovalAnswer;

/** Decides whether a tool call may run. */
export type ApprovalHandler = (
  request: ApprovalRequest,
) => Promise<ApprovalDecision> | ApprovalDecision;

/** One line of the audit trail: a decision about a call, or a call that ran. */
export type ToolAuditEntry =
  | {
      readonly kind: "decision";
      readonly toolCallId: string;
      readonly toolName: string;
      /** What the call would do: the tool's summary, else its input as JSON (at most 500 characters). */
      readonly subject: string;
      readonly verdict: ToolVerdict;
      readonly approved: boolean;
      readonly reason: string;
    }
  | {
      readonly kind: "execution";
      readonly toolCallId: string;
      readonly toolName: string;
      readonly success: boolean;
      readonly durationMs: number;
    };

/** Receives the audit trail of tool calls. */
export type ToolAuditSink = (entry: ToolAuditEntry) => void;

/** Hooks the registry calls while it executes a tool call. */
export interface ToolExecutionHooks {
  readonly signal: AbortSignal;
  /**
   * Asked before any call that is not a plain read (a `read` tool judged `allow`).
   * Without it such calls are refused.
   */
  readonly approve?: ApprovalHandler;
  readonly audit?: ToolAuditSink;
  readonly onApprovalRequested?: (request: ApprovalRequest) => void;
  readonly onApprovalAnswered?: (request: ApprovalRequest, decision: ApprovalDecision) => void;
  readonly onProgress?: (progress: ToolProgress) => void;
}

/** Holds the tools an agent may call and executes calls safely. */
export interface ToolRegistry {
  register(tool: Tool): void;
  has(name: string): boolean;
  get(name: string): Tool | undefined;
  names(): string[];
  /** The tools as the model sees them, JSON Schema included. */
  specifications(): ToolSpecification[];
  /**
   * Executes one call. Never throws: an unknown tool, input that is not JSON or does
   * not match the schema, a refusal, a timeout and a thrown error all become a failed
   * {@link ToolResult} whose error tells the model what to do next.
   */
  execute(call: ToolCallRequest, hooks: ToolExecutionHooks): Promise<ToolResult>;
}

/**
 * A reason as a complete sentence: trimmed, ending in `.`, `!` or `?` (a trailing `,`,
 * `;` or `:` becomes `.`). Reasons come from tools and approval handlers, some as
 * clauses (`deleting cannot be undone`) and some as sentences; each message below joins
 * them to its own sentences without running them together.
 */
function asSentence(reason: string): string {
  const text = reason.trim().replace(/[,;:]+$/, "");
  if (text === "") return "";
  return /[.!?]["')\]]?$/.test(text) ? text : `${text}.`;
}

/** A reason without its final full stop, to be continued or put in parentheses. */
function asClause(reason: string): string {
  return reason.trim().replace(/[.,;:]+$/, "");
}

/**
 * Why a call was not approved: a short clause in parentheses, `(no one is available to
 * approve it).`, or, when the reason is sentences already, those sentences after a colon.
 */
function notApproved(toolName: string, reason: string | undefined): string {
  const why = asClause(reason ?? "") || "refused";
  const sentences = /[.!?]["')\]]?\s/.test(why);
  return `The call to '${toolName}' was not approved${sentences ? `: ${asSentence(why)}` : ` (${why}).`} Do not retry it; continue another way or explain what you need.`;
}

function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(input)"}: ${issue.message}`)
    .join("; ");
}

/** A call's input as the tool's schema gives it, or why it is not one. */
type Validated =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly issues: string; readonly loadError?: never }
  | { readonly ok: false; readonly issues?: never; readonly loadError: string };

/**
 * `input` as the tool's input schema's `parse` returns it. The tool's zod-free reader
 * (`readInput`, generated from the schema) answers first; when it is not sure, the zod schema
 * is loaded (a tool's first such call imports it) and decides, and its issues are what the
 * model reads. A schema that fails to load fails the call.
 */
async function validateInput(tool: Tool, input: unknown): Promise<Validated> {
  let read: ReadResult | undefined;
  try {
    read = tool.readInput?.(input);
  } catch {
    // A reader that fails is "not sure": zod decides.
  }
  if (read?.ok) return { ok: true, data: read.value };
  let schema: z.ZodType;
  try {
    schema = await tool.loadInputSchema();
  } catch (error) {
    return {
      ok: false,
      loadError: `'${tool.name}' could not load its input schema: ${describeError(error)}`,
    };
  }
  const parsed = schema.safeParse(input);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, issues: formatIssues(parsed.error) };
}

class TimeoutError extends Error {}

async function withTimeout<T>(
  run: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  outer: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(outer.reason);
  outer.addEventListener("abort", onOuterAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new TimeoutError();
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  const aborted = new Promise<never>((_, reject) => {
    if (controller.signal.aborted) reject(controller.signal.reason);
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), {
      once: true,
    });
  });
  try {
    return await Promise.race([run(controller.signal), timeout, aborted]);
  } finally {
    clearTimeout(timer);
    outer.removeEventListener("abort", onOuterAbort);
  }
}

/** A call's judgement, and the input it judged: the one the call runs with. */
interface Judged {
  readonly assessment: ToolAssessment;
  readonly input: unknown;
}

/**
 * The tool's judgement of `input` (the default one without `assess`). A judgement that fails
 * is a refusal, never a permission. When it replaced the input (a hook's rewrite), the call
 * is asked about, audited and run with the replacement.
 */
async function judge(tool: Tool, input: unknown): Promise<Judged> {
  let assessment: ToolAssessment;
  try {
    assessment = (await tool.assess?.(input)) ?? defaultAssessment(tool);
  } catch (error) {
    return {
      assessment: { verdict: "block", reason: `the safety check failed: ${describeError(error)}` },
      input,
    };
  }
  return { assessment, input: assessment.input === undefined ? input : assessment.input };
}

/** The frozen copy each tool input schema object is offered as, made once per object. */
const specificationSchemas = new WeakMap<object, Record<string, unknown>>();

/**
 * A tool's input schema as specifications give it: a copy, so no caller changes what the tool
 * itself holds, frozen, so no caller changes what other registries offer either.
 */
function specificationSchema(schema: object): Record<string, unknown> {
  let copy = specificationSchemas.get(schema);
  if (copy === undefined) {
    copy = deepFreeze(structuredClone(schema) as Record<string, unknown>);
    specificationSchemas.set(schema, copy);
  }
  return copy;
}

/**
 * Creates an empty tool registry.
 *
 * @example
 * const registry = createToolRegistry({ maxOutputBytes: 64 * 1024 });
 * registry.register(createReadFileTool({ root }));
 */
export function createToolRegistry(options: ToolRegistryOptions = {}): ToolRegistry {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const tools = new Map<string, Tool>();
  let specificationCache: ToolSpecification[] | undefined;

  async function runTool(
    tool: Tool,
    call: ToolCallRequest,
    hooks: ToolExecutionHooks,
  ): Promise<ToolResult> {
    let rawInput: unknown;
    if (call.input === undefined) {
      rawInput = call.parsedInput;
    } else {
      try {
        rawInput = call.input.trim() === "" ? {} : JSON.parse(call.input);
      } catch {
        return toolFailure(
          `The arguments for '${call.toolName}' are not valid JSON. Send one JSON object that matches the tool's schema.`,
          { invalidInput: true },
        );
      }
    }
    // The one validation of this call's input: `assess` judges, and `execute` receives, its
    // result.
    const parsed = await validateInput(tool, rawInput);
    if (!parsed.ok) {
      return toolFailure(
        parsed.issues === undefined
          ? parsed.loadError
          : `Invalid input for '${call.toolName}': ${parsed.issues}. Fix the arguments and call the tool again.`,
        parsed.issues === undefined ? {} : { invalidInput: true },
      );
    }
    let approvedByPerson = false;
    let judged = await judge(tool, parsed.data);
    const audit = (approved: boolean, reason: string) =>
      hooks.audit?.({
        kind: "decision",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        subject: (judged.assessment.summary ?? JSON.stringify(judged.input) ?? "").slice(0, 500),
        verdict: judged.assessment.verdict,
        approved,
        reason,
      });
    const { assessment } = judged;
    if (assessment.verdict === "block") {
      audit(false, assessment.reason);
      return toolFailure(
        `Refused: ${asSentence(assessment.reason)} This call will not run in any mode; do not retry it.`,
        { refused: true },
      );
    }
    if (!(assessment.verdict === "allow" && tool.access === "read")) {
      const request: ApprovalRequest = {
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        access: tool.access,
        input: judged.input,
        verdict: assessment.verdict,
        // A sentence, so that what an approver adds to it (`... It needs a person's yes.`)
        // does not run on from a tool's clause.
        reason: asSentence(assessment.reason),
        ...(assessment.summary === undefined ? {} : { summary: assessment.summary }),
        ...(assessment.requiresPerson ? { requiresPerson: true } : {}),
        ...(assessment.readOnly ? { readOnly: true } : {}),
      };
      hooks.onApprovalRequested?.(request);
      let decision: ApprovalDecision;
      try {
        decision = hooks.approve
          ? await hooks.approve(request)
          : { approved: false, reason: "no one is available to approve it" };
      } catch (error) {
        // An approval that fails to answer is a refusal, never a permission.
        decision = { approved: false, reason: `approval failed: ${describeError(error)}` };
      }
      if (decision.approved && assessment.requiresPerson && decision.byPerson !== true) {
        // Fail closed: a handler that approves everything cannot stand in for a person.
        decision = {
          approved: false,
          reason: `only a person's explicit yes can allow it, and none was given: ${asClause(assessment.reason)}`,
        };
      }
      approvedByPerson = decision.approved && decision.byPerson === true;
      hooks.onApprovalAnswered?.(request, decision);
      audit(decision.approved, decision.reason ?? assessment.reason);
      if (!decision.approved) {
        return toolFailure(notApproved(call.toolName, decision.reason), { refused: true });
      }
      if (decision.editedInput !== undefined) {
        const edited = await validateInput(tool, decision.editedInput);
        if (!edited.ok) {
          return toolFailure(
            edited.issues === undefined
              ? edited.loadError
              : `The edited input for '${call.toolName}' is invalid: ${edited.issues}.`,
            { refused: true },
          );
        }
        // The edit is a new input: judged on its own, and what runs is what this judgement saw.
        judged = await judge(tool, edited.data);
        const second = judged.assessment;
        if (second.verdict === "block") {
          audit(false, second.reason);
          return toolFailure(
            `Refused: ${asSentence(second.reason)} The edited call will not run.`,
            { refused: true },
          );
        }
        if (second.requiresPerson && !approvedByPerson) {
          audit(false, second.reason);
          return toolFailure(
            `Refused: only a person's explicit yes can allow the edited call: ${asSentence(second.reason)}`,
            { refused: true },
          );
        }
      }
    } else {
      audit(true, assessment.reason);
    }
    const { input } = judged;
    const allowedBy = judged.assessment;
    const timeoutMs = tool.timeoutMs ?? defaultTimeoutMs;
    try {
      return await withTimeout(
        (signal) =>
          tool.execute(input, {
            signal,
            toolCallId: call.toolCallId,
            reportProgress: (progress) => hooks.onProgress?.(progress),
            approvedByPerson,
            assessment: allowedBy,
          }),
        timeoutMs,
        hooks.signal,
      );
    } catch (error) {
      if (error instanceof TimeoutError) {
        return toolFailure(
          `'${call.toolName}' did not finish within ${timeoutMs} ms and was stopped. Try a smaller request.`,
          { timedOut: true },
        );
      }
      if (hooks.signal.aborted)
        return toolFailure(`'${call.toolName}' was cancelled.`, { cancelled: true });
      return toolFailure(`'${call.toolName}' failed: ${describeError(error)}`);
    }
  }

  return {
    register(tool) {
      if (tools.has(tool.name)) {
        throw new XzatomaError(
          "TOOL_ALREADY_REGISTERED",
          `A tool named '${tool.name}' is already registered.`,
        );
      }
      tools.set(tool.name, tool);
      specificationCache = undefined;
    },
    has: (name) => tools.has(name),
    get: (name) => tools.get(name),
    names: () => [...tools.keys()],
    specifications() {
      specificationCache ??= [...tools.values()].map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: specificationSchema(tool.modelInputSchema),
      }));
      return specificationCache;
    },
    async execute(call, hooks) {
      const tool = tools.get(call.toolName);
      if (!tool) {
        const available = [...tools.keys()].join(", ") || "none";
        return toolFailure(
          `There is no tool named '${call.toolName}'. Available tools: ${available}.`,
        );
      }
      const startedAt = performance.now();
      const result = await runTool(tool, call, hooks);
      if (!result.metadata["refused"] && !result.metadata["invalidInput"] && hooks.audit) {
        hooks.audit({
          kind: "execution",
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          success: result.success,
          durationMs: Math.round(performance.now() - startedAt),
        });
      }
      return truncateToolResult(result, maxOutputBytes);
    },
  };
}
