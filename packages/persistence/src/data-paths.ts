import path from "node:path";

/** Where XZatoma keeps its data, given the process's environment and home directory. */
export interface DataPathInputs {
  /** `--storage-path` from the command line, if given. */
  readonly storagePath?: string;
  /** The environment (`XZATOMA_HOME`, `XZATOMA_HISTORY_DB`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The user's home directory. */
  readonly homeDir: string;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value : undefined;
}

/** The data directory: `XZATOMA_HOME`, else `~/.xzatoma`. */
export function resolveDataHome(inputs: Omit<DataPathInputs, "storagePath">): string {
  return path.resolve(
    nonEmpty(inputs.env["XZATOMA_HOME"]) ?? path.join(inputs.homeDir, ".xzatoma"),
  );
}

/**
 * The history database file: `--storage-path`, then `XZATOMA_HISTORY_DB`, then
 * `history.db` in the data directory.
 */
export function resolveHistoryDbPath(inputs: DataPathInputs): string {
  const explicit = nonEmpty(inputs.storagePath) ?? nonEmpty(inputs.env["XZATOMA_HISTORY_DB"]);
  return explicit ? path.resolve(explicit) : path.join(resolveDataHome(inputs), "history.db");
}
