import { parseYamlStrictly, planToPrompt } from "@xzatoma/core";
import { parsePlanText } from "@xzatoma/core/plan";
import type { MatchablePlan } from "./generic-match.js";

/** What the agent is asked to do for one event. */
export interface PlanTask {
  readonly prompt: string;
  /** The plan's own turn limit (`max_iterations`), when it sets one. */
  readonly maxTurns?: number;
  /** Whether the plan asks for `allow_dangerous` (granted only when the configuration allows it). */
  readonly wantsDangerous: boolean;
  /** The plan's name, action and version, for matching and results. */
  readonly plan: MatchablePlan;
  /** False when the text did not parse as a plan and is run as a free-form prompt. */
  readonly isPlan: boolean;
}

function field(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return undefined;
}

/** `action`, `name` and `version` as written at the top of the plan, if it is a mapping. */
function planFields(text: string): MatchablePlan {
  let raw: unknown;
  try {
    raw = text.trim().startsWith("{") ? JSON.parse(text) : parseYamlStrictly(text);
  } catch {
    return {};
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return {};
  const record = raw as Record<string, unknown>;
  const fields = {
    action: field(record["action"]),
    name: field(record["name"]),
    version: field(record["version"]),
  };
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as MatchablePlan;
}

/**
 * Reads `text` as a plan (JSON, YAML or Markdown; the steps, goal and task-list dialects).
 * Throws the plan's validation error, naming the field, when it is not one.
 */
export function planTaskOf(text: string, source: string): PlanTask {
  const plan = parsePlanText(text, source);
  const fields = planFields(text);
  return {
    prompt: planToPrompt(plan),
    ...(plan.maxTurns ? { maxTurns: plan.maxTurns } : {}),
    wantsDangerous: plan.allowDangerous === true,
    plan: { ...fields, name: plan.name },
    isPlan: true,
  };
}

/** A text that is not a plan, run as it is (the XZepr watcher's free-form prompts). */
export function promptTaskOf(text: string): PlanTask {
  return { prompt: text, wantsDangerous: false, plan: {}, isPlan: false };
}
