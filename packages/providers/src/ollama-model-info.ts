/** What Ollama's `/api/show` says about a model. */
export interface OllamaModelInfo {
  /** The trained context length, when the model reports one. */
  readonly contextLength: number | undefined;
  /** Whether its template supports tools. */
  readonly supportsTools: boolean;
}

interface ShowResponse {
  model_info?: Record<string, unknown>;
  capabilities?: string[];
  template?: string;
}

/**
 * Reads a model's trained context length (`model_info["<arch>.context_length"]`) and tool
 * support (`capabilities` has `tools`, or the template uses `.Tools`) from `/api/show`.
 * Resolves undefined when the server cannot say (old server, unknown model): the chat
 * request then reports the real problem.
 */
export async function inspectOllamaModel(
  host: string,
  model: string,
  fetchImpl: typeof fetch = fetch,
): Promise<OllamaModelInfo | undefined> {
  let body: ShowResponse;
  try {
    const response = await fetchImpl(`${host}/api/show`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) return undefined;
    body = (await response.json()) as ShowResponse;
  } catch {
    return undefined;
  }
  const info = body.model_info ?? {};
  const architecture = info["general.architecture"];
  let contextLength =
    typeof architecture === "string" ? info[`${architecture}.context_length`] : undefined;
  if (typeof contextLength !== "number") {
    contextLength = Object.entries(info).find(
      ([key, value]) => key.endsWith("context_length") && typeof value === "number",
    )?.[1];
  }
  const supportsTools = body.capabilities
    ? body.capabilities.includes("tools")
    : (body.template ?? "").includes(".Tools");
  return {
    contextLength: typeof contextLength === "number" ? contextLength : undefined,
    supportsTools,
  };
}
