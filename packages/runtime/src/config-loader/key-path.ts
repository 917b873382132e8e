/** A key path as a list of object keys and array indexes. */
export type KeySegments = readonly (string | number)[];

/** `agent.tools.packages[0].name` from segments. */
export function formatKeyPath(segments: KeySegments): string {
  let result = "";
  for (const segment of segments) {
    if (typeof segment === "number") result += `[${segment}]`;
    else result += result === "" ? segment : `.${segment}`;
  }
  return result;
}
