/**
 * Builders for configuration fields. Every package builds the zod schema of its own slice
 * of configuration from these, so a front end can word what each key expects ("a positive
 * integer") without knowing the package.
 */
import { z } from "zod";
import type { ConfigRule } from "./config-rule.js";
import { isHttpUrlWithoutCredentials } from "./http-url.js";
import { MAX_TIMER_MS, MAX_TIMER_SECONDS } from "./timer-limits.js";
import { toolPackageFromName } from "./tool-package-entry.js";

export { isHttpUrlWithoutCredentials, MAX_TIMER_MS, MAX_TIMER_SECONDS };

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

// The schemas of keys whose paths the configuration loader resolves (see `resolvedPath`).
const resolvedPaths = new WeakSet<z.ZodType>();

/**
 * A path the configuration loader resolves: `~` expanded, and a relative path taken from the
 * configuration file's directory (from the working directory when set by an environment
 * variable or a flag). The loader's list of such keys is generated from these schemas.
 */
export function resolvedPath() {
  const schema = filePath();
  resolvedPaths.add(schema);
  return schema;
}

/** Whether `schema` was made by {@link resolvedPath}. */
export function isResolvedPath(schema: z.ZodType): boolean {
  return resolvedPaths.has(schema);
}

/** One of `values`. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return expecting(z.enum(values), `one of ${values.join(", ")}`);
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
  return expecting(z.preprocess(toolPackageFromName, entry), "a package name or { name, options }");
}

/** A list of tool packages. */
export function toolPackageList() {
  return expecting(z.array(toolPackage()), "a list of package names or { name, options }");
}

// Each schema `withRule` returned, with the rules it applies (a rule added to a schema that
// already has one keeps both, in order).
const rules = new WeakMap<z.ZodType, readonly ConfigRule<never>[]>();

/**
 * `schema` with a rule across its keys: every issue the rule returns is a problem of the
 * value. The rule is a plain function (see `ConfigRule`), so the configuration read at
 * start-up, which does not load zod, applies the very same function.
 */
export function withRule<T extends z.ZodType>(schema: T, rule: ConfigRule<z.output<T>>): T {
  const refined = schema.superRefine((value, context) => {
    for (const issue of rule(value as z.output<T>)) {
      context.addIssue({
        code: "custom",
        ...(issue.path === undefined ? {} : { path: [...issue.path] }),
        ...(issue.explained === true ? { params: { explained: true } } : {}),
        message: issue.message,
      });
    }
  }) as T;
  rules.set(refined, [...(rules.get(schema) ?? []), rule as ConfigRule<never>]);
  return refined;
}

/** The rules `withRule` added to `schema`, in order; empty for any other schema. */
export function rulesOf(schema: z.ZodType): readonly ConfigRule<never>[] {
  return rules.get(schema) ?? [];
}
