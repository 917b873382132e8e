import { filePath, flag } from "@xzatoma/core";
import { z } from "zod";

/**
 * `persistence`: whether conversations are stored, and where. Without `data_dir` the data
 * directory is `$XZATOMA_HOME`, else `~/.xzatoma`; without `db_path` the database is
 * `history.db` in it. The runtime resolves both to absolute paths.
 */
export const persistenceConfigSchema = z.strictObject({
  enabled: flag().default(true),
  data_dir: filePath().optional(),
  db_path: filePath().optional(),
});

export type PersistenceConfig = z.output<typeof persistenceConfigSchema>;
