import type { AgentEventError, StopReason } from "@xzatoma/core";
import type { Failure } from "./failure-kind.js";

/** One tool call of a run, as the classification needs it. */
export interface ObservedCall {
  readonly name: string;
  /** The tool exists in the run's registry. */
  readonly known: boolean;
  readonly success: boolean;
  /** Its arguments were not JSON or did not match the schema. */
  readonly invalidInput: boolean;
  /** The safety layer refused it. */
  readonly refused: boolean;
  /** The error the model read, when it failed. */
  readonly error?: string;
}

/** Everything a case's outcome is judged from. */
export interface CaseOutcome {
  /** How the run ended; absent when it threw instead. */
  readonly stopReason?: StopReason;
  /** The run's error (stop reason `error`) or what was thrown. */
  readonly error?: AgentEventError;
  readonly answer: string;
  readonly calls: readonly ObservedCall[];
  /** The tools the model was offered. */
  readonly tools: readonly string[];
  /** The expectations not met (empty: all met). */
  readonly unmet: readonly string[];
  /** The case expects a tool called or a file made: an answer alone cannot pass it. */
  readonly needsTool: boolean;
}

/** Error codes that mean the model's server failed, not XZatoma. */
const PROVIDER_CODES = new Set([
  "PROVIDER_UNAVAILABLE",
  "PROVIDER_ERROR",
  "PROVIDER_AUTH",
  "PROVIDER_TIMEOUT",
  "MODEL_NOT_FOUND",
  "EMPTY_RESPONSE",
  "CREDENTIAL_STORE_UNAVAILABLE",
]);

/** True when the text holds a JSON object naming one of the tools: a call written as text. */
export function looksLikeTextToolCall(text: string, tools: readonly string[]): boolean {
  return tools.some((name) =>
    new RegExp(`"(?:name|tool|function)"\\s*:\\s*"${name.replace(/[^\w-]/g, "")}"`).test(text),
  );
}

function firstLine(text: string | undefined): string {
  return (text ?? "").trim().split("\n")[0] ?? "";
}

/**
 * The failure of a case, or `undefined` when it passed. A run that ended on its own is
 * judged by its expectations; a failed one is explained by its calls: refusals first, then
 * malformed calls, then no call at all, else the unmet expectations.
 */
export function classifyFailure(outcome: CaseOutcome): Failure | undefined {
  const { stopReason, error } = outcome;
  if (stopReason === undefined || stopReason === "error") {
    const code = error?.code ?? "UNKNOWN";
    const detail = `${code}: ${firstLine(error?.message) || "no message"}`;
    if (PROVIDER_CODES.has(code)) return { kind: "provider-error", detail };
    if (code === "CONTEXT_LENGTH_EXCEEDED") return { kind: "limit", detail };
    return { kind: "crash", detail };
  }
  switch (stopReason) {
    case "timeout":
      return { kind: "timeout", detail: "the case's time ran out before a final answer" };
    case "repeated-tool-calls":
      return { kind: "loop", detail: "the model repeated the same tool call" };
    case "max-turns":
    case "tool-budget":
    case "tool-calls-per-step":
    case "length":
    case "quota":
      return { kind: "limit", detail: `stopped by the limit '${stopReason}'` };
    case "aborted":
      return { kind: "crash", detail: "the run was interrupted" };
    case "completed":
      break;
  }
  if (outcome.unmet.length === 0) return undefined;
  const unmet = outcome.unmet.join("; ");
  const refused = outcome.calls.find((call) => call.refused);
  if (refused)
    return {
      kind: "refused",
      detail: `${refused.name} was refused (${firstLine(refused.error)}); ${unmet}`,
    };
  const malformed = outcome.calls.find((call) => !call.known || call.invalidInput);
  if (malformed)
    return {
      kind: "malformed-tool-call",
      detail: `${malformed.known ? "invalid arguments for" : "no such tool:"} ${malformed.name}; ${unmet}`,
    };
  if (outcome.calls.length === 0 && looksLikeTextToolCall(outcome.answer, outcome.tools))
    return {
      kind: "malformed-tool-call",
      detail: `the model wrote a tool call as text instead of calling the tool; ${unmet}`,
    };
  if (outcome.calls.length === 0 && outcome.needsTool)
    return { kind: "no-tool-call", detail: `the model answered without calling a tool; ${unmet}` };
  return { kind: "expectation", detail: unmet };
}
