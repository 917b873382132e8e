/**
 * The argument names whose values are file paths in XZatoma's tools and the usual
 * MCP file tools (`read_file.path`, `copy_path.source_path`, `diff.path_a`, ...).
 */
export const PATH_ARGUMENTS: readonly string[] = [
  "path",
  "paths",
  "file",
  "files",
  "file_path",
  "filepath",
  "filename",
  "source",
  "source_path",
  "destination",
  "destination_path",
  "target_path",
  "path_a",
  "path_b",
  "old_path",
  "new_path",
];

const MAX_PATH_LENGTH = 300;

function isPathLike(value: string): boolean {
  return (
    value !== "" &&
    value.length <= MAX_PATH_LENGTH &&
    !value.includes("\n") &&
    !value.includes("://")
  );
}

/** The file paths a tool call's input names, in argument order, without duplicates. */
export function pathsInToolInput(input: unknown): string[] {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return [];
  const record = input as Record<string, unknown>;
  const paths = new Set<string>();
  for (const name of PATH_ARGUMENTS) {
    const value = record[name];
    if (typeof value === "string") {
      if (isPathLike(value)) paths.add(value);
    } else if (Array.isArray(value)) {
      for (const item of value) if (typeof item === "string" && isPathLike(item)) paths.add(item);
    }
  }
  return [...paths];
}
