/**
 * What a hook printed on standard output, read as Claude Code's hook output: a JSON object
 * with the common fields (`continue`, `stopReason`, `systemMessage`), a `decision` with its
 * `reason`, and `hookSpecificOutput` (`permissionDecision`, `permissionDecisionReason`,
 * `updatedInput`, `additionalContext`). Output that is not JSON is plain text.
 */
export type HookOutput =
  | { readonly kind: "none" }
  | { readonly kind: "text"; readonly text: string }
  /** It looked like JSON (began with `{`) and was not a valid object. */
  | { readonly kind: "invalid"; readonly reason: string }
  | { readonly kind: "json"; readonly fields: HookJsonFields };

/** The fields of a hook's JSON output XZatoma acts on. */
export interface HookJsonFields {
  /** `false`: stop (the prompt is not sent, the call does not run, the run ends). */
  readonly continue?: boolean;
  readonly stopReason?: string;
  /** Shown to the person. */
  readonly systemMessage?: string;
  /** `block` refuses (or, for `Stop`, makes the agent go on); `approve` is ignored. */
  readonly decision?: string;
  readonly reason?: string;
  /** `deny` refuses, `ask` needs a person's yes; `allow` is ignored (never widens). */
  readonly permissionDecision?: string;
  readonly permissionDecisionReason?: string;
  /** A `PreToolUse` hook's replacement for the tool's input. */
  readonly updatedInput?: Record<string, unknown>;
  /** Text that reaches the model. */
  readonly additionalContext?: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;

/** Reads a hook's standard output; see {@link HookOutput}. */
export function parseHookOutput(stdout: string): HookOutput {
  const trimmed = stdout.trim();
  if (trimmed === "") return { kind: "none" };
  if (!trimmed.startsWith("{")) return { kind: "text", text: trimmed };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    return {
      kind: "invalid",
      reason: `its output is not valid JSON (${(error as Error).message})`,
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { kind: "invalid", reason: "its output is not a JSON object" };
  const data = value as Record<string, unknown>;
  const specific =
    typeof data["hookSpecificOutput"] === "object" && data["hookSpecificOutput"] !== null
      ? (data["hookSpecificOutput"] as Record<string, unknown>)
      : {};
  const updated = specific["updatedInput"];
  if (
    updated !== undefined &&
    (typeof updated !== "object" || updated === null || Array.isArray(updated))
  )
    return { kind: "invalid", reason: "hookSpecificOutput.updatedInput is not a JSON object" };
  const fields = Object.fromEntries(
    Object.entries({
      continue: typeof data["continue"] === "boolean" ? data["continue"] : undefined,
      stopReason: text(data["stopReason"]),
      systemMessage: text(data["systemMessage"]),
      decision: text(data["decision"]),
      reason: text(data["reason"]),
      permissionDecision: text(specific["permissionDecision"]),
      permissionDecisionReason: text(specific["permissionDecisionReason"]),
      updatedInput: updated,
      additionalContext: text(specific["additionalContext"]),
    }).filter(([, field]) => field !== undefined),
  );
  return { kind: "json", fields: fields as HookJsonFields };
}
