/** A tool call's input as one short line (`→ read_file README.md`): its values, cut at `max` characters. */
export function summariseInput(input: unknown, max = 60): string {
  if (input === null || typeof input !== "object") return String(input);
  const text = Object.values(input as Record<string, unknown>)
    .map((value) => (typeof value === "string" ? value : JSON.stringify(value)))
    .join(" ");
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
