// A configuration key that nothing reads is a promise the program does not keep. This test
// lists every leaf key of the composed schema and looks for code that reads it: a member
// access (`terminal.timeout_seconds`, `agent.max_turns`) in the source of a package or app.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runtimeConfigSchema } from "./config-schema.js";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault ||
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable
    )
      current = current.unwrap() as z.ZodType;
    else if (current instanceof z.ZodPipe) current = current.out as z.ZodType;
    else return current;
  }
}

/** Every leaf key path of `schema` (objects are walked; anything else is a leaf). */
function leafPaths(schema: z.ZodType, prefix: string[] = []): string[][] {
  const inner = unwrap(schema);
  if (!(inner instanceof z.ZodObject)) return [prefix];
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, child]) =>
    leafPaths(child, [...prefix, key]),
  );
}

/** The TypeScript sources of every package and app, tests and declaration files left out. */
function sources(): string[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory)) {
      if (entry === "node_modules" || entry === "dist") continue;
      const full = path.join(directory, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry.endsWith(".ts") && !/\.(test|test-support|d)\.ts$/.test(entry))
        files.push(full);
    }
  };
  for (const group of ["packages", "apps"]) {
    for (const project of readdirSync(path.join(ROOT, group))) {
      const src = path.join(ROOT, group, project, "src");
      try {
        if (statSync(src).isDirectory()) walk(src);
      } catch {
        // a project without sources
      }
    }
  }
  return files;
}

/** Code without comments: a key named in a comment is not a key read. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("configuration keys", () => {
  const leaves = leafPaths(runtimeConfigSchema);
  const files = sources().map((file) => code(readFileSync(file, "utf8")));
  const nameCount = new Map<string, number>();
  for (const leaf of leaves) nameCount.set(leaf.at(-1)!, (nameCount.get(leaf.at(-1)!) ?? 0) + 1);

  it("walks the whole schema (a sanity check of the walk itself)", () => {
    const keys = leaves.map((leaf) => leaf.join("."));
    expect(keys).toContain("agent.terminal.timeout_seconds");
    expect(keys).toContain("provider.ollama.request_timeout_seconds");
    expect(keys.length).toBeGreaterThan(40);
  });

  it("are each read by some code (a key nothing reads must not exist)", () => {
    const unread = leaves
      .filter((leaf) => {
        const name = leaf.at(-1)!;
        const parent = leaf.at(-2);
        const member = new RegExp(`\\??\\.${escape(name)}\\b`);
        // A name that appears once in the schema is read by `.name`. A shared one (`model`,
        // `timeout_seconds`) counts for one place only when read as `parent.name`, or as
        // `.name` in a file that also reads `.parent` (a function given that slice).
        if ((nameCount.get(name) ?? 0) <= 1 || parent === undefined)
          return !files.some((text) => member.test(text));
        const qualified = new RegExp(`\\b${escape(parent)}\\??\\.${escape(name)}\\b`);
        const slice = new RegExp(`\\??\\.${escape(parent)}\\b`);
        return !files.some(
          (text) => qualified.test(text) || (slice.test(text) && member.test(text)),
        );
      })
      .map((leaf) => leaf.join("."));
    expect(unread).toEqual([]);
  });
});
