import path from "node:path";
import { XzatomaError } from "@xzatoma/errors";
import { runtimeConfigSchema } from "./config/config-schema.js";
import type { RuntimeConfig } from "./config/config-values.js";

/** Options of {@link resolveRuntimeConfig}. */
export interface ResolveRuntimeConfigOptions {
  /** The user's home directory, for the default data directory `~/.xzatoma`. */
  readonly homeDir: string;
  /** The environment: `XZATOMA_HOME` names the data directory when the config does not. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Named in errors: the file the value came from. */
  readonly source?: string;
}

/**
 * Validates a configuration value (parsed YAML or JSON) against the composed schema and
 * fills in the data paths: the one rule every front end without the CLI's loader uses.
 * Problems are thrown together as one `CONFIG_INVALID` error naming each key.
 */
export function resolveRuntimeConfig(
  value: unknown,
  options: ResolveRuntimeConfigOptions,
): RuntimeConfig {
  const parsed = runtimeConfigSchema.safeParse(value ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "(top level)"}: ${issue.message}`,
    );
    throw new XzatomaError(
      "CONFIG_INVALID",
      `${options.source ?? "configuration"}: ${problems.join("; ")}.`,
      { fields: { source: options.source, problems } },
    );
  }
  const home = options.env?.["XZATOMA_HOME"]?.trim();
  const dataDir =
    parsed.data.persistence.data_dir ??
    (home ? path.resolve(home) : path.join(options.homeDir, ".xzatoma"));
  return {
    ...parsed.data,
    persistence: {
      ...parsed.data.persistence,
      data_dir: dataDir,
      db_path: parsed.data.persistence.db_path ?? path.join(dataDir, "history.db"),
    },
  };
}
