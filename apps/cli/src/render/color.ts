/** The part of a stream {@link shouldUseColor} looks at. */
export interface ColorTarget {
  readonly isTTY?: boolean;
}

/**
 * Whether to colour what goes to `stream`: only a terminal gets colour, and never when
 * `NO_COLOR` is set to anything non-empty (https://no-color.org) or `TERM` is `dumb`.
 *
 * @example
 * createTextRenderer({ stdout, stderr, color: shouldUseColor(process.stderr, process.env) });
 */
export function shouldUseColor(
  stream: ColorTarget,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if ((env["NO_COLOR"] ?? "") !== "") return false;
  if (env["TERM"] === "dumb") return false;
  return stream.isTTY === true;
}
