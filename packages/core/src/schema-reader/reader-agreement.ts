/**
 * What the tests of a generated reader table check it with: a corpus of inputs (samples and
 * their mutations) read both by the zod-free reader and by the zod schema the table was
 * generated from. The reader may say "not sure" anywhere; wherever it answers, zod must accept
 * the same input and give a deeply equal value with the same key order. A wrong "valid" is the
 * failure that matters. Exported from `@xzatoma/core/config` (it needs zod), never from the
 * main entry.
 */
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import { readSchemaValue, type SchemaChecks, type SchemaNode } from "./schema-reader.js";
import { NO_SCHEMA_CHECKS } from "./schema-reader.js";

/** Values put in place of a value: wrong types, bounds, empty, untrimmed, unknown words. */
export const READER_PROBES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1,
  1.5,
  10,
  11,
  20,
  21,
  80,
  1000,
  1001,
  Number.MAX_SAFE_INTEGER + 2,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  "",
  " ",
  " x ",
  "x",
  "a".repeat(81),
  "edit",
  "append",
  "select:a",
  [],
  ["x"],
  {},
  { a: 1 },
];

const clone = <T>(value: T): T => structuredClone(value);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `root` with the value at `path` replaced by what `change` makes of it. */
function replaced(
  root: unknown,
  path: readonly (string | number)[],
  change: (value: unknown) => unknown,
): unknown {
  if (path.length === 0) return change(clone(root));
  const copy = clone(root) as Record<string | number, unknown>;
  let parent = copy;
  for (const segment of path.slice(0, -1)) parent = parent[segment] as typeof parent;
  const last = path[path.length - 1] as string | number;
  parent[last] = change(parent[last]);
  return copy;
}

/**
 * `sample` and its mutations: at every level, every key removed, an unknown key added, every
 * value replaced by each of {@link READER_PROBES}; arrays emptied, shortened, lengthened (to
 * 25 items) and mutated item by item.
 */
export function mutationsOf(sample: unknown): unknown[] {
  const out: unknown[] = [clone(sample)];
  const visit = (value: unknown, path: (string | number)[]) => {
    if (path.length > 0) {
      for (const probe of READER_PROBES) out.push(replaced(sample, path, () => clone(probe)));
    }
    if (isObject(value)) {
      out.push(replaced(sample, path, (object) => ({ ...(object as object), unknown_key: 1 })));
      for (const key of Object.keys(value)) {
        out.push(
          replaced(sample, path, (object) => {
            return Object.fromEntries(
              Object.entries(object as Record<string, unknown>).filter(([name]) => name !== key),
            );
          }),
        );
        visit(value[key], [...path, key]);
      }
    } else if (Array.isArray(value)) {
      out.push(replaced(sample, path, () => []));
      if (value.length > 0) {
        out.push(replaced(sample, path, (array) => (array as unknown[]).slice(1)));
        out.push(
          replaced(sample, path, (array) =>
            Array.from({ length: 25 }, () => clone((array as unknown[])[0])),
          ),
        );
      }
      value.forEach((item, index) => visit(item, [...path, index]));
    }
  };
  visit(sample, []);
  return out;
}

/** How the reader and zod compared on a corpus. */
export interface ReaderAgreement {
  /** Inputs read. */
  readonly samples: number;
  /** Inputs zod accepts. */
  readonly accepted: number;
  /** Inputs the reader answered (each one zod accepts with the same value). */
  readonly decided: number;
  /** Inputs zod accepts that the reader was not sure of (zod decides those). */
  readonly undecided: readonly unknown[];
  /** Inputs the reader answered wrongly: zod refuses them or gives another value. */
  readonly wrong: readonly {
    readonly input: unknown;
    readonly reader: unknown;
    readonly zod: unknown;
  }[];
}

/** Reads every input of `corpus` with the reader's table and with the zod schema. */
export function readerAgreement(
  schema: z.ZodType,
  node: SchemaNode,
  corpus: readonly unknown[],
  fns: SchemaChecks = NO_SCHEMA_CHECKS,
): ReaderAgreement {
  let accepted = 0;
  let decided = 0;
  const undecided: unknown[] = [];
  const wrong: { input: unknown; reader: unknown; zod: unknown }[] = [];
  for (const input of corpus) {
    const read = readSchemaValue(node, clone(input), fns);
    const parsed = schema.safeParse(clone(input));
    if (parsed.success) accepted++;
    if (!read.ok) {
      if (parsed.success) undecided.push(input);
      continue;
    }
    decided++;
    const same =
      parsed.success &&
      isDeepStrictEqual(read.value, parsed.data) &&
      JSON.stringify(read.value) === JSON.stringify(parsed.data);
    if (!same) {
      wrong.push({ input, reader: read.value, zod: parsed.success ? parsed.data : "refused" });
    }
  }
  return { samples: corpus.length, accepted, decided, undecided, wrong };
}
