import { accessSync, constants } from "node:fs";
import path from "node:path";

/**
 * The first executable among `candidates`, then among `name` in the directories of
 * `searchPath` (a PATH value); undefined when there is none.
 */
export function findProgram(
  name: string,
  candidates: readonly string[],
  searchPath: string | undefined,
): string | undefined {
  const fromPath = (searchPath ?? "")
    .split(":")
    .filter((directory) => path.isAbsolute(directory))
    .map((directory) => path.join(directory, name));
  for (const candidate of [...candidates, ...fromPath]) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
