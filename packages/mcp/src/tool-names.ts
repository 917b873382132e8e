/** The longest tool name every provider accepts (OpenAI's limit). */
export const MAX_TOOL_NAME_LENGTH = 64;

/**
 * The registry name of a server's tool: `<server>__<tool>`, every character outside
 * `[A-Za-z0-9_-]` replaced by `_`, starting with a letter (`mcp_` is put in front otherwise),
 * at most 64 characters. A name that had to be shortened ends in a short hash of the full
 * name, so two long names that share a prefix stay apart.
 */
export function mcpToolName(server: string, tool: string): string {
  let name = `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_");
  if (!/^[A-Za-z]/.test(name)) name = `mcp_${name}`;
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
  const hash = fnv1a(`${server}\0${tool}`);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - hash.length - 1)}_${hash}`;
}

/** The 32-bit FNV-1a hash of `text` as 8 hex digits (node:crypto costs 5 ms to load). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/**
 * Makes `name` differ from every name in `taken` by a numeric suffix (`_2`, `_3`, ...) kept
 * within 64 characters, and records the result in `taken`.
 */
export function uniqueToolName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let counter = 2; taken.has(candidate); counter++) {
    const suffix = `_${counter}`;
    candidate = `${name.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
  }
  taken.add(candidate);
  return candidate;
}
