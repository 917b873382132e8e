// The `tool_search` tool's zod input schema, imported on the tool's first call; what the
// model reads is generated from it (model-input-schemas.test.ts).
import { z } from "zod";

/** The most tools one search loads. */
const MAX_RESULTS = 10;

/** The input of `tool_search`. */
export const toolSearchInput = z
  .object({
    query: z.string().min(1).describe("Keywords for what the tool should do, or select:NAME,..."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_RESULTS)
      .optional()
      .describe(`How many tools to load at most (default 5, at most ${MAX_RESULTS}).`),
  })
  .strict();
