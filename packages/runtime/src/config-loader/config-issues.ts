import { redactSecrets } from "@xzatoma/redaction";
import { z } from "zod";
import type { ConfigProblem } from "./config-error.js";
import type { LocateValue } from "./schema-checks.js";
import { runtimeConfigSchema as configFileSchema } from "../config/config-schema.js";
import { closestMatch } from "./did-you-mean.js";
import { REPLACED_KEYS } from "./replaced-keys.js";
import {
  allKeyPaths,
  expectationAt,
  formatKeyPath,
  keysAt,
  schemaAt,
  type KeySegments,
} from "./schema-walk.js";

export type { LocateValue } from "./schema-checks.js";

let allKeys: readonly string[] | undefined;

/** Every key path of the configuration, listed the first time a message needs it. */
function allConfigKeyPaths(): readonly string[] {
  allKeys ??= allKeyPaths(configFileSchema);
  return allKeys;
}

/** A value as it appears in a message: strings quoted, secrets redacted, long text cut. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") {
    const shown = value.length > 80 ? `${value.slice(0, 77)}...` : value;
    return JSON.stringify(redactSecrets(shown));
  }
  return String(value);
}

function valueAt(input: unknown, segments: KeySegments): unknown {
  let current = input;
  for (const segment of segments) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

function unknownKeyMessage(parent: KeySegments, key: string): string {
  const replaced = REPLACED_KEYS[formatKeyPath([...parent, key])];
  if (replaced !== undefined) return `"${key}" is not taken by this version: ${replaced}`;
  const siblings = keysAt(configFileSchema, parent);
  const close = closestMatch(key, siblings);
  if (close !== undefined) return `unknown key "${key}"; did you mean "${close}"?`;
  const last = (path: string) => path.slice(path.lastIndexOf(".") + 1);
  let elsewhere = allConfigKeyPaths().filter((path) => last(path) === key);
  if (elsewhere.length === 0) {
    elsewhere = allConfigKeyPaths().filter((path) => closestMatch(key, [last(path)]) !== undefined);
  }
  elsewhere = elsewhere.slice(0, 3);
  if (elsewhere.length > 0)
    return `unknown key "${key}" here; did you mean ${elsewhere.join(" or ")}?`;
  return siblings.length > 0
    ? `unknown key "${key}"; the keys here are: ${siblings.join(", ")}`
    : `unknown key "${key}"`;
}

function enumSuggestion(segments: KeySegments, value: unknown): string {
  if (typeof value !== "string") return "";
  const schema = schemaAt(configFileSchema, segments);
  let inner: unknown = schema;
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) inner = inner.unwrap();
  if (!(inner instanceof z.ZodEnum)) return "";
  const close = closestMatch(value, inner.options as string[]);
  return close === undefined ? "" : `; did you mean "${close}"?`;
}

/**
 * Turns zod issues for `input` into problems that name the key path, the source and,
 * for unknown keys, a likely intended key. `prefix` is where `input` sits in the file
 * (empty for a whole file, the key path for one environment variable or flag).
 */
export function issuesToProblems(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  prefix: KeySegments,
  locate: LocateValue,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const seen = new Set<string>();
  const add = (problem: ConfigProblem) => {
    const key = `${problem.keyPath ?? ""}\u0000${problem.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    problems.push(problem);
  };
  for (const issue of issues) {
    const segments = [...prefix, ...(issue.path as (string | number)[])];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        add({
          ...locate(segments, key),
          keyPath: formatKeyPath([...segments, key]),
          message: unknownKeyMessage(segments, key),
        });
      }
      continue;
    }
    const keyPath = formatKeyPath(segments);
    // Rules across keys explain themselves; other refinements read like any bad value.
    if (issue.code === "custom" && issue.params?.["explained"] === true) {
      add({ ...locate(segments), keyPath, message: issue.message });
      continue;
    }
    const value = valueAt(input, issue.path as (string | number)[]);
    const expected = expectationAt(configFileSchema, segments);
    const message =
      expected === undefined
        ? `${issue.message}, got ${describeValue(value)}`
        : `expected ${expected}, got ${describeValue(value)}${enumSuggestion(segments, value)}`;
    // Several issues for one key (a union's branches) say the same thing once.
    if ([...seen].some((entry) => entry.startsWith(`${keyPath}\u0000`))) continue;
    add({ ...locate(segments), keyPath, message });
  }
  return problems;
}
