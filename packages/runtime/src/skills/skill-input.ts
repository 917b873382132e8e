// The `skill` tool's zod input schema, imported on the tool's first call; what the model reads
// is generated from it (model-input-schemas.test.ts).
import { z } from "zod";

/** The input of the `skill` tool. */
export const skillInput = z
  .object({ name: z.string().describe("The skill's name, as listed.") })
  .strict();
