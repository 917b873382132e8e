/** A mistake in how the command was called; exits with code 2 and names the flag. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
