// The openings of a tool call written as JSON, given to node-llama-cpp's function calling as
// alternate prefixes: when a model starts a call this way, the call is constrained by
// grammar from there on like one opened with its chat template's own syntax.
import type { ChatWrapper, ChatWrapperSettings } from "node-llama-cpp";

/**
 * How small instruction models open a call when they do not write their template's own
 * prefix (`<tool_call>` for Qwen): a JSON object naming the function, bare or in a Markdown
 * fence, compact or indented. Measured on Qwen2.5-Coder 0.5B and 1.5B, which write
 * ```` ```json\n{\n  "name": "read_file", ... ```` instead of `<tool_call>`
 * (docs/explanation/local-models.md).
 */
export const JSON_CALL_OPENINGS: readonly string[] = (() => {
  const objects = ['{"name": "', '{"name":"', '{\n  "name": "', '{\n    "name": "', '{\n"name": "'];
  const fences = ["```json\n", "```\n", "```json\n\n"];
  return [...fences.flatMap((fence) => objects.map((object) => fence + object)), ...objects];
})();

/**
 * `wrapper` with {@link JSON_CALL_OPENINGS} added to its function call's alternate prefixes
 * (node-llama-cpp's `prefixAlternateMatches`). node-llama-cpp detects any of them in the
 * answer, enters function calling there and lets the grammar choose an offered function's
 * name and write arguments that fit its schema; the context holds the call in the
 * template's own syntax. Text before the opening stays the answer's text.
 *
 * The wrapper is changed in place (its `settings` replaced by a copy, never the shared
 * defaults); it must be one this session made.
 */
export function withJsonCallOpenings<Wrapper extends ChatWrapper>(wrapper: Wrapper): Wrapper {
  const { settings } = wrapper;
  const call = settings.functions.call;
  const alternates = [...(call.prefixAlternateMatches ?? []), ...JSON_CALL_OPENINGS];
  const extended: ChatWrapperSettings = {
    ...settings,
    functions: { ...settings.functions, call: { ...call, prefixAlternateMatches: alternates } },
  };
  (wrapper as { settings: ChatWrapperSettings }).settings = extended;
  return wrapper;
}
