// The configuration reader generated from the zod schemas (config-reader.ts and its table
// config-reader.generated.ts) against zod itself. A wrong "valid" is the failure that
// matters: wherever the reader answers, zod must accept the same value and give exactly what
// the reader gives; wherever zod refuses, the reader must say "not sure".
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { allKeyPaths, isLeafAt, schemaAt } from "../config-loader/schema-walk.js";
import { NO_HOOKS } from "../hooks/hooks-config.js";
import { hooksConfigSchema } from "../hooks/hooks-config-schema.js";
import { isLeafNode, nodeAt, readConfigValue } from "./config-reader.js";
import { CONFIG_NODE, PATH_KEYS } from "./config-reader.generated.js";
import { runtimeConfigSchema } from "./config-schema.js";
import {
  configReaderSource,
  GENERATED_FILE,
  REGENERATE_COMMAND,
} from "./generate-config-reader.js";

const PACKAGE = fileURLToPath(new URL("../../", import.meta.url));
const ROOT = path.resolve(PACKAGE, "../..");
const SECTIONS = [
  "provider",
  "agent",
  "persistence",
  "logging",
  "mcp",
  "hooks",
  "watcher",
  "xzepr",
];

/** Every YAML block of the docs that is a configuration file (its top keys are sections). */
function documentedConfigs(): { name: string; data: unknown }[] {
  const found: { name: string; data: unknown }[] = [];
  for (const folder of ["docs/reference", "docs/how-to", "docs/tutorials", "docs/explanation"]) {
    let files: string[];
    try {
      files = readdirSync(path.join(ROOT, folder)).filter((file) => file.endsWith(".md"));
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(path.join(ROOT, folder, file), "utf8");
      let index = 0;
      for (const match of text.matchAll(/```ya?ml\n([\s\S]*?)```/g)) {
        index += 1;
        let data: unknown;
        try {
          data = parseYaml(match[1] ?? "");
        } catch {
          continue;
        }
        if (typeof data !== "object" || data === null || Array.isArray(data)) continue;
        const keys = Object.keys(data);
        if (keys.length === 0 || !keys.every((key) => SECTIONS.includes(key))) continue;
        found.push({ name: `${folder}/${file} block ${index}`, data: withoutNulls(data) });
      }
    }
  }
  return found;
}

/** As the loader reads a file: a key without a value is not set. */
function withoutNulls(data: unknown): unknown {
  if (data === null) return undefined;
  if (typeof data !== "object" || Array.isArray(data)) return data;
  return Object.fromEntries(
    Object.entries(data)
      .filter(([, value]) => value !== null)
      .map(([key, value]) => [key, withoutNulls(value)]),
  );
}

const clone = <T>(value: T): T => structuredClone(value);

function setAt(target: unknown, segments: readonly string[], value: unknown): unknown {
  const copy = clone(target) as Record<string, unknown>;
  let current = copy;
  segments.forEach((segment, index) => {
    if (index === segments.length - 1) {
      if (value === undefined) Reflect.deleteProperty(current, segment);
      else current[segment] = value;
      return;
    }
    const next = current[segment];
    if (typeof next !== "object" || next === null || Array.isArray(next)) current[segment] = {};
    current = current[segment] as Record<string, unknown>;
  });
  return copy;
}

const PROBES: readonly unknown[] = [
  "",
  "  padded  ",
  "nope",
  "http://127.0.0.1:11434",
  "user:pw@host",
  "localhost:11434",
  "PLAINTEXT",
  "a(",
  0,
  1,
  -1,
  0.5,
  1.5,
  256,
  1024,
  65_536,
  2 ** 31,
  1e300,
  true,
  false,
  "true",
  [],
  ["a"],
  [1, 2],
  [""],
  {},
  { unknown_key: 1 },
];

/** The key paths a value at the top can take, and the values each leaf is probed with. */
const KEY_PATHS = allKeyPaths(runtimeConfigSchema);
const LEAVES = KEY_PATHS.filter((keyPath) => isLeafAt(runtimeConfigSchema, keyPath.split(".")));

function corpus(): { name: string; data: unknown }[] {
  const bases = [{ name: "{}", data: {} }, ...documentedConfigs()];
  const samples = [...bases];
  for (const base of bases) {
    const leaves: string[] = [];
    const walk = (value: unknown, prefix: string[]) => {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        if (prefix.length > 0) leaves.push(prefix.join("."));
        return;
      }
      if (prefix.length > 0)
        samples.push({
          name: `${base.name} +unknown at ${prefix.join(".")}`,
          data: setAt(base.data, [...prefix, "not_a_key"], 1),
        });
      for (const [key, child] of Object.entries(value)) walk(child, [...prefix, key]);
    };
    walk(base.data, []);
    for (const leaf of leaves) {
      const segments = leaf.split(".");
      samples.push({ name: `${base.name} -${leaf}`, data: setAt(base.data, segments, undefined) });
      for (const probe of PROBES) {
        samples.push({
          name: `${base.name} ${leaf}=${JSON.stringify(probe)}`,
          data: setAt(base.data, segments, probe),
        });
      }
    }
  }
  // Every key of the schema on its own, with every probe.
  for (const leaf of LEAVES) {
    for (const probe of PROBES) {
      samples.push({
        name: `${leaf}=${JSON.stringify(probe)}`,
        data: setAt({}, leaf.split("."), probe),
      });
    }
  }
  for (const keyPath of KEY_PATHS) {
    samples.push({
      name: `unknown key under ${keyPath}`,
      data: setAt({}, [...keyPath.split("."), "zz_unknown"], 1),
    });
  }
  return samples;
}

describe("the generated configuration reader", () => {
  it("is what the generator gives from the current schemas", () => {
    const current = readFileSync(path.join(PACKAGE, GENERATED_FILE), "utf8");
    const expected = configReaderSource();
    if (current !== expected) {
      expect.fail(
        `${GENERATED_FILE} is not what the schemas give; regenerate it: ${REGENERATE_COMMAND}`,
      );
    }
  });

  it("gives exactly what zod gives, or is not sure, and is never sure where zod refuses", () => {
    const samples = corpus();
    let decided = 0;
    let refused = 0;
    for (const { name, data } of samples) {
      const zod = runtimeConfigSchema.safeParse(clone(data));
      const read = readConfigValue(CONFIG_NODE, clone(data));
      if (!zod.success) refused += 1;
      if (!read.ok) continue;
      decided += 1;
      expect(zod.success, `${name}: the reader accepts what zod refuses`).toBe(true);
      expect(isDeepStrictEqual(read.value, zod.data), `${name}: a different value`).toBe(true);
      // The same keys in the same order, as `config show` prints them.
      expect(JSON.stringify(read.value), name).toBe(JSON.stringify(zod.data));
    }
    // It answers for a real share of the corpus, not "not sure" everywhere, and the corpus
    // holds invalid values for it to refuse.
    const accepted = samples.length - refused;
    expect(samples.length).toBeGreaterThan(3000);
    expect(refused).toBeGreaterThan(samples.length / 4);
    expect(decided).toBeGreaterThan(accepted / 2);
  });

  it("reads an empty file and every example configuration of the reference without zod", () => {
    expect(readConfigValue(CONFIG_NODE, {})).toEqual({
      ok: true,
      value: runtimeConfigSchema.parse({}),
    });
    const reference = documentedConfigs().filter(({ name }) =>
      name.startsWith("docs/reference/configuration.md"),
    );
    expect(reference.length).toBeGreaterThan(3);
    const undecided = reference.filter(({ data }) => !readConfigValue(CONFIG_NODE, data).ok);
    const valid = undecided.filter(({ data }) => runtimeConfigSchema.safeParse(data).success);
    // What it leaves to zod there is what it was not generated to decide (the watcher's
    // transform and rules, XZepr's rule), never the sections every run reads.
    for (const { data } of valid) {
      expect(Object.keys(data as object).some((key) => ["watcher", "xzepr"].includes(key))).toBe(
        true,
      );
    }
  });

  it("checks one value at a key as zod checks it (environment variables and flags)", () => {
    for (const leaf of LEAVES) {
      const segments = leaf.split(".");
      const schema = schemaAt(runtimeConfigSchema, segments) as z.ZodType;
      const node = nodeAt(CONFIG_NODE, segments);
      expect(node, leaf).toBeDefined();
      expect(isLeafNode(node!), leaf).toBe(true);
      for (const probe of PROBES) {
        const read = readConfigValue(node!, probe);
        if (!read.ok) continue;
        const zod = schema.safeParse(probe);
        expect(zod.success, `${leaf}=${JSON.stringify(probe)}`).toBe(true);
        expect(read.value, leaf).toEqual(zod.data);
      }
    }
    for (const keyPath of KEY_PATHS) {
      const segments = keyPath.split(".");
      expect(isLeafNode(nodeAt(CONFIG_NODE, segments)!), keyPath).toBe(
        isLeafAt(runtimeConfigSchema, segments),
      );
    }
    expect(nodeAt(CONFIG_NODE, ["agent", "no_such_key"])).toBeUndefined();
  });

  it("lists the keys whose paths the loader resolves, from the schema's resolvedPath() keys", () => {
    expect(PATH_KEYS).toEqual([
      "provider.local.model_path",
      "persistence.data_dir",
      "persistence.db_path",
      "logging.file",
    ]);
  });

  it("leaves the runtime's empty hooks section equal to the schema's", () => {
    expect(NO_HOOKS).toEqual(hooksConfigSchema.parse({}));
  });
});
