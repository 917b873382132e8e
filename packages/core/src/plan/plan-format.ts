import path from "node:path";
import { PlanError } from "./plan-error.js";
import type { PlanFormat } from "./plan.js";

/** The plan format of a file name, or a {@link PlanError} naming the file. */
export function planFormatOf(file: string): PlanFormat {
  const extension = path.extname(file).toLowerCase();
  switch (extension) {
    case ".yaml":
    case ".yml":
      return "yaml";
    case ".json":
      return "json";
    case ".md":
    case ".markdown":
      return "markdown";
    case "":
      throw new PlanError(
        `${file}: the plan file has no extension; name it .yaml, .yml, .json or .md.`,
        file,
      );
    default:
      throw new PlanError(
        `${file}: unsupported plan format '${extension}'; use .yaml, .yml, .json or .md.`,
        file,
      );
  }
}
