import type { ModelCapabilities, ListedModel } from "../openai/model-info.js";

/** The two Copilot endpoints XZatoma speaks. */
export type CopilotEndpoint = "chat" | "responses";

/** Capabilities of a Copilot model, with the extra flags Copilot reports. */
export interface CopilotModelCapabilities extends ModelCapabilities {
  readonly parallelToolCalls: boolean | null;
  readonly structuredOutputs: boolean | null;
}

/** A model of the Copilot `/models` listing. */
export interface CopilotModelInfo extends ListedModel {
  readonly provider: "copilot";
  readonly capabilities: CopilotModelCapabilities;
  /** `chat`, `embeddings`, ... (`capabilities.type`). */
  readonly type: string;
  readonly vendor: string | undefined;
  readonly version: string | undefined;
  readonly family: string | undefined;
  readonly preview: boolean;
  readonly pickerEnabled: boolean;
  readonly pickerCategory: string | undefined;
  /** `enabled`, `disabled`, ...; undefined when the model has no policy. */
  readonly policyState: string | undefined;
  /** `supported_endpoints` as listed, e.g. `["/chat/completions", "/responses"]`. */
  readonly supportedEndpoints: readonly string[];
  /** The endpoint XZatoma uses for the model; undefined when it lists none XZatoma speaks. */
  readonly endpoint: CopilotEndpoint | undefined;
}

/**
 * One `supported_endpoints` entry without slashes or case: `/chat/completions` and
 * `chat/completions` are the same endpoint. (The original compared the raw strings with
 * `chat_completions` and `responses`, which never matched the API's `/`-prefixed values.)
 */
export function normalizeEndpoint(endpoint: string): string {
  return endpoint
    .trim()
    .replace(/^\/+|\/+$/g, "")
    .toLowerCase();
}

/**
 * The endpoint to use for a model given its `supported_endpoints`: none listed means
 * chat completions; `/responses` when listed (as the original preferred: Codex-class
 * models are served best there); else `/chat/completions` when listed; else undefined.
 */
export function selectCopilotEndpoint(
  supportedEndpoints: readonly string[] | undefined,
): CopilotEndpoint | undefined {
  if (!supportedEndpoints || supportedEndpoints.length === 0) return "chat";
  const endpoints = new Set(supportedEndpoints.map(normalizeEndpoint));
  if (endpoints.has("responses")) return "responses";
  if (endpoints.has("chat/completions")) return "chat";
  return undefined;
}

type Json = Record<string, unknown>;

function record(value: unknown): Json | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function count(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : null;
}

function parseModel(entry: Json): CopilotModelInfo | undefined {
  const id = text(entry["id"]);
  if (!id) return undefined;
  const capabilities = record(entry["capabilities"]);
  const limits = record(capabilities?.["limits"]);
  const supports = record(capabilities?.["supports"]);
  const flag = (name: string): boolean | null =>
    supports ? supports[name] === true : capabilities ? false : null;
  const endpoints = Array.isArray(entry["supported_endpoints"])
    ? entry["supported_endpoints"].filter((item): item is string => typeof item === "string")
    : [];
  const vision = flag("vision");
  return {
    id,
    name: text(entry["name"]) ?? id,
    provider: "copilot",
    capabilities: {
      contextWindow: count(limits?.["max_context_window_tokens"]),
      maxOutputTokens: count(limits?.["max_output_tokens"]),
      maxPromptTokens: count(limits?.["max_prompt_tokens"]),
      toolCalls: flag("tool_calls"),
      streaming: flag("streaming"),
      vision: vision === true || record(limits?.["vision"]) !== undefined ? true : vision,
      parallelToolCalls: flag("parallel_tool_calls"),
      structuredOutputs: flag("structured_outputs"),
    },
    type: text(capabilities?.["type"]) ?? "chat",
    vendor: text(entry["vendor"]),
    version: text(entry["version"]),
    family: text(capabilities?.["family"]),
    preview: entry["preview"] === true,
    pickerEnabled: entry["model_picker_enabled"] === true,
    pickerCategory: text(entry["model_picker_category"]),
    policyState: text(record(entry["policy"])?.["state"]),
    supportedEndpoints: endpoints,
    endpoint: selectCopilotEndpoint(endpoints),
  };
}

/**
 * Parses Copilot's `/models` answer (`{data: [...]}`, or the bare array of a recording).
 * Entries without an id are skipped; a repeated id keeps its first entry.
 */
export function parseCopilotModels(body: unknown): CopilotModelInfo[] {
  const data = Array.isArray(body) ? body : record(body)?.["data"];
  if (!Array.isArray(data)) return [];
  const models: CopilotModelInfo[] = [];
  const seen = new Set<string>();
  for (const entry of data) {
    const object = record(entry);
    const model = object ? parseModel(object) : undefined;
    if (!model || seen.has(model.id)) continue;
    seen.add(model.id);
    models.push(model);
  }
  return models;
}

/**
 * The models a user can chat with: chat models whose policy is enabled or absent (a
 * disabled policy must first be accepted on github.com).
 */
export function isUsableCopilotModel(model: CopilotModelInfo): boolean {
  return (
    model.type === "chat" &&
    (model.policyState === undefined || model.policyState === "enabled") &&
    model.endpoint !== undefined
  );
}
