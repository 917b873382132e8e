/** Metadata values a tool attaches to its result (sizes, counts, flags). */
export type ToolMetadata = Readonly<Record<string, string | number | boolean>>;

/**
 * The outcome of one tool call, shown to both the model and the user.
 * `output` is what the tool produced; on failure `error` says what went wrong and what
 * to do next.
 */
export interface ToolResult {
  readonly success: boolean;
  readonly output: string;
  readonly error?: string;
  /** True when `output` was cut to the registry's output cap. */
  readonly truncated: boolean;
  readonly metadata: ToolMetadata;
}

/** A successful result. */
export function toolSuccess(output: string, metadata: ToolMetadata = {}): ToolResult {
  return { success: true, output, truncated: false, metadata };
}

/** A failed result; `error` is written for the model. */
export function toolFailure(error: string, metadata: ToolMetadata = {}): ToolResult {
  return { success: false, output: "", error, truncated: false, metadata };
}

/**
 * Cuts `output` to at most `maxBytes` UTF-8 bytes, on a character boundary, and
 * records the original size (measured before cutting).
 */
export function truncateToolResult(result: ToolResult, maxBytes: number): ToolResult {
  const bytes = Buffer.byteLength(result.output, "utf8");
  if (bytes <= maxBytes) return result;
  // Decoding a byte prefix with replacement would corrupt the last character; drop it instead.
  let cut = Buffer.from(result.output, "utf8").subarray(0, maxBytes).toString("utf8");
  if (cut.endsWith("\uFFFD")) cut = cut.slice(0, -1);
  return {
    ...result,
    output: cut,
    truncated: true,
    metadata: { ...result.metadata, originalBytes: bytes, shownBytes: Buffer.byteLength(cut) },
  };
}

/** The text the model reads for a result. */
export function toolResultToModelText(result: ToolResult): string {
  if (!result.success) return `Error: ${result.error ?? "the tool failed without a message"}`;
  if (!result.truncated) return result.output;
  const shown = result.metadata["shownBytes"];
  const original = result.metadata["originalBytes"];
  return `${result.output}\n[Output truncated: showed ${String(shown)} of ${String(original)} bytes. Ask for a smaller part.]`;
}
