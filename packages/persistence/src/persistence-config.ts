import { flag, resolvedPath } from "@xzatoma/core/config";
import { z } from "zod";

/**
 * `persistence`: whether conversations are stored, and where. Without `data_dir` the data
 * directory is `$XZATOMA_HOME`, else `~/.xzatoma`; without `db_path` the database is
 * `history.db` in it. The runtime resolves both to absolute paths. Exported from
 * `@xzatoma/persistence/config`, so opening the history loads no zod for it.
 */
export const persistenceConfigSchema = z.strictObject({
  enabled: flag().default(true),
  data_dir: resolvedPath().optional(),
  db_path: resolvedPath().optional(),
});

export type PersistenceConfig = z.output<typeof persistenceConfigSchema>;
