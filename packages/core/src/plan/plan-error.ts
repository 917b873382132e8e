import { XzatomaError } from "../errors.js";

/** A plan that cannot be read, parsed or validated. The message names the file and the field. */
export class PlanError extends XzatomaError {
  override readonly name = "PlanError";
  constructor(
    message: string,
    readonly file: string,
    readonly field?: string,
  ) {
    super("PLAN_INVALID", message);
  }
}
