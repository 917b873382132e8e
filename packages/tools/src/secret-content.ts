import type { ToolResult } from "@xzatoma/core";
import { createRedactor, REDACTED } from "@xzatoma/redaction";
import type { SecretExposure } from "@xzatoma/safety";

/**
 * Screens file content before the model reads it: every secret the redactor finds is
 * replaced by `[REDACTED]` (line breaks kept, so line numbers hold), and the first one
 * records `found a secret in WHAT` on the session's exposure tracker, however the file
 * is named, so that a later request to a host the user has not allowed needs a person.
 * The model never receives the value; the exposure is recorded all the same, because a
 * file that holds one secret often holds others the redactor cannot see (a user name
 * beside a password, a value under an unusual key).
 *
 * One screen per tool call: `screen` each piece of content, then `finish` the result.
 * Only content goes through `screen`, never XZatoma's own words around it (a note that
 * says "look like they hold secrets: .env" would read as a key and its value).
 *
 * @example
 * const content = createContentScreen(workspace.exposure, "deploy/settings.yaml");
 * return content.finish(toolSuccess(content.screen(text)));
 */
export interface ContentScreen {
  /** `text` with its secrets replaced; counts what it hid. */
  screen(text: string): string;
  /** How many secrets were hidden so far. */
  readonly hidden: number;
  /**
   * `result` with {@link secretsNote} appended and `secretsHidden` in its metadata when
   * anything was hidden; otherwise `result` as it is.
   */
  finish(result: ToolResult): ToolResult;
}

const redact = createRedactor({ keepLines: true });
const markers = (text: string): number => text.split(REDACTED).length - 1;

/** Creates the screen of one read of `what` (a path, or "the grep results in src"). */
export function createContentScreen(
  exposure: SecretExposure | undefined,
  what: string,
): ContentScreen {
  let hidden = 0;
  return {
    screen(text) {
      const redacted = redact(text);
      if (redacted === text) return text;
      if (hidden === 0) exposure?.record(`found a secret in ${what}`);
      hidden += Math.max(1, markers(redacted) - markers(text));
      return redacted;
    },
    get hidden() {
      return hidden;
    },
    finish(result) {
      if (hidden === 0 || !result.success) return result;
      return {
        ...result,
        output: `${result.output}${secretsNote(hidden)}`,
        metadata: { ...result.metadata, secretsHidden: hidden },
      };
    },
  };
}

/** The note a tool appends when it hid secrets, so the model knows what `[REDACTED]` is. */
export function secretsNote(hidden: number): string {
  const values = hidden === 1 ? "1 value that looks secret" : `${hidden} values that look secret`;
  return `\n\n[XZatoma replaced ${values} with ${REDACTED}; the file still holds the real text. edit_file cannot match a line that shows ${REDACTED}: to change one, ask the user.]`;
}
