/**
 * Builders for configuration fields. Every package builds the zod schema of its own slice
 * of configuration from these, so a front end can word what each key expects ("a positive
 * integer") without knowing the package.
 */
import { z } from "zod";

/**
 * What each leaf schema expects, in words for error messages ("a positive integer").
 * Kept beside the schema instead of in zod's global registry, so nothing else sees it.
 */
const expectations = new WeakMap<z.ZodType, string>();

/** Registers how to word what `schema` expects ("a positive integer"); returns `schema`. */
export function expecting<T extends z.ZodType>(schema: T, text: string): T {
  expectations.set(schema, text);
  return schema;
}

/** The wording registered for `schema` by one of the builders below, if any. */
export function expectationOf(schema: z.ZodType): string | undefined {
  return expectations.get(schema);
}

/** An integer of at least 1, optionally at most `max`. */
export function positiveInteger(max?: number) {
  const base = z.number().int().min(1);
  return max === undefined
    ? expecting(base, "a positive integer")
    : expecting(base.max(max), `an integer from 1 to ${max}`);
}

/** An integer of at least 0. */
export function wholeNumber() {
  return expecting(z.number().int().min(0), "a whole number (0 or more)");
}

/**
 * The longest delay Node's timers keep: 2^31 - 1 ms, about 24.8 days. `setTimeout` with a
 * longer delay fires after 1 ms instead, so every duration key that ends in a timer is capped
 * by {@link timerSeconds} or {@link timerMilliseconds}.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** {@link MAX_TIMER_MS} in whole seconds: 2147483. */
export const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

const TIMER_LIMIT = "about 24.8 days, the longest a timer can wait";

/**
 * A duration in whole seconds that a timer waits out: an integer from `min` (1, or 0 where
 * 0 means "at once") to {@link MAX_TIMER_SECONDS}.
 */
export function timerSeconds(min: 0 | 1 = 1) {
  return expecting(
    z
      .number()
      .int()
      .min(min)
      .max(MAX_TIMER_SECONDS, `at most ${MAX_TIMER_SECONDS} seconds (${TIMER_LIMIT})`),
    `a whole number of seconds from ${min} to ${MAX_TIMER_SECONDS} (${TIMER_LIMIT})`,
  );
}

/** The same as {@link timerSeconds} in milliseconds: `min` to {@link MAX_TIMER_MS}. */
export function timerMilliseconds(min: 0 | 1 = 1) {
  return expecting(
    z
      .number()
      .int()
      .min(min)
      .max(MAX_TIMER_MS, `at most ${MAX_TIMER_MS} milliseconds (${TIMER_LIMIT})`),
    `a whole number of milliseconds from ${min} to ${MAX_TIMER_MS} (${TIMER_LIMIT})`,
  );
}

/** A number in (0, 1]. */
export function fraction() {
  return expecting(z.number().gt(0).lte(1), "a number greater than 0 and at most 1");
}

/** `true` or `false`. */
export function flag() {
  return expecting(z.boolean(), "true or false");
}

/** A string with something in it. */
export function text() {
  return expecting(z.string().trim().min(1), "a non-empty string");
}

/** A path; `~` is expanded later. */
export function filePath() {
  return expecting(z.string().trim().min(1), "a file path");
}

/** One of `values`. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return expecting(z.enum(values), `one of ${values.join(", ")}`);
}

export function isHttpUrlWithoutCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === "http:" || url.protocol === "https:") &&
      url.username === "" &&
      url.password === ""
    );
  } catch {
    return false;
  }
}

/** An http(s) URL. A user name or password in it is refused: credentials never live in config. */
export function httpUrl() {
  return expecting(
    z.string().refine(isHttpUrlWithoutCredentials),
    "an http or https URL without a user name or password",
  );
}

/** A list of non-empty strings. */
export function textList() {
  return expecting(z.array(text()), "a list of strings");
}

/** A list of TCP port numbers. */
export function portList() {
  const port = expecting(z.number().int().min(1).max(65535), "a port number from 1 to 65535");
  return expecting(z.array(port), "a list of port numbers");
}

/** A number in (0, 1], or `false` to turn the feature off. */
export function fractionOrOff() {
  return expecting(
    z.union([fraction(), z.literal(false)]),
    "a number greater than 0 and at most 1, or false",
  );
}

/**
 * A tool package: its name, or `{ name, options }`. Normalised to the object form.
 */
export function toolPackage() {
  const entry = z.strictObject({
    name: text(),
    options: expecting(z.record(z.string(), z.unknown()), "a mapping of options").default({}),
  });
  return expecting(
    z.preprocess((value) => (typeof value === "string" ? { name: value } : value), entry),
    "a package name or { name, options }",
  );
}

/** A list of tool packages. */
export function toolPackageList() {
  return expecting(z.array(toolPackage()), "a list of package names or { name, options }");
}
