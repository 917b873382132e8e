import type { Document, LineCounter } from "yaml";
import type { ConfigProblem, ConfigSource } from "./config-error.js";
import type { KeySegments } from "./key-path.js";
import { yaml } from "./yaml.js";

/** Reads a file as UTF-8 text; rejects with an error carrying `code: "ENOENT"` when it is missing. */
export type ReadTextFile = (path: string) => Promise<string>;

/** A parsed config file: its settings and where each key sits in the text. */
export interface ParsedConfigFile {
  readonly path: string;
  readonly source: ConfigSource;
  /** The settings: a plain object (empty for an empty file). */
  readonly data: Record<string, unknown>;
  /** The line and column of the value at `segments` (or of the key `key` inside it). */
  locate(segments: KeySegments, key?: string): { line: number; column: number } | undefined;
}

/** The outcome of reading the config file. */
export type ConfigFileRead =
  | { readonly kind: "absent" }
  | { readonly kind: "parsed"; readonly file: ParsedConfigFile }
  | { readonly kind: "invalid"; readonly problems: readonly ConfigProblem[] };

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function describeReadError(error: unknown): string {
  switch (errorCode(error)) {
    case "EACCES":
    case "EPERM":
      return "cannot be read: permission denied";
    case "EISDIR":
      return "is a directory, not a file";
    default:
      return `cannot be read: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * `data` without keys that have no value (`max_turns:` or a section whose keys are all
 * commented out): such a key counts as not set. Nulls inside lists stay, and are refused.
 */
function withoutNulls(data: unknown): unknown {
  if (data === null) return undefined;
  if (typeof data !== "object" || Array.isArray(data)) return data;
  return Object.fromEntries(
    Object.entries(data)
      .filter(([, value]) => value !== null)
      .map(([key, value]) => [key, withoutNulls(value)]),
  );
}

function locator(document: Document, lines: LineCounter) {
  const { isMap, isNode, isScalar } = yaml();
  return (segments: KeySegments, key?: string) => {
    let node: unknown = segments.length === 0 ? document.contents : document.getIn(segments, true);
    if (key !== undefined && isMap(node)) {
      node = node.items.find((pair) => isScalar(pair.key) && String(pair.key.value) === key)?.key;
    }
    if (!isNode(node) || node.range === undefined || node.range === null) return undefined;
    const position = lines.linePos(node.range[0]);
    return { line: position.line, column: position.col };
  };
}

/**
 * A problem for each key a mapping of `document` repeats, at the repeated key. Keys are
 * compared as the settings see them (`1:` and `"1":` are the same key), one set per mapping.
 */
function repeatedKeys(
  document: Document,
  lines: LineCounter,
  source: ConfigSource,
): ConfigProblem[] {
  const { isMap, isScalar, visit } = yaml();
  const problems: ConfigProblem[] = [];
  visit(document, {
    Map(_key, map) {
      if (!isMap(map)) return;
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        if (seen.has(key)) {
          const range = isScalar(pair.key) ? pair.key.range : undefined;
          const position = range ? lines.linePos(range[0]) : undefined;
          problems.push({
            source,
            message: `invalid YAML: Map keys must be unique: '${key}' is repeated`,
            ...(position !== undefined ? { line: position.line, column: position.col } : {}),
          });
        }
        seen.add(key);
      }
    },
  });
  return problems;
}

/**
 * Reads and parses the YAML config file at `path`. A missing file is `absent` unless
 * `required` (a path the caller or XZATOMA_CONFIG named), when it is a problem that names
 * where the path came from (`wording`);
 * invalid YAML is a problem per error, with its line.
 */
export async function readConfigFile(
  path: string,
  readFile: ReadTextFile,
  required: boolean,
  wording: {
    /** The caller's own option for the path, to name in the message (a library names none). */
    readonly configFlag?: string;
    /** The environment variable the path came from, when it did. */
    readonly fromVariable?: string;
  } = {},
): Promise<ConfigFileRead> {
  const source: ConfigSource = `file:${path}`;
  let text: string;
  try {
    text = await readFile(path);
  } catch (error) {
    if (errorCode(error) === "ENOENT" && !required) return { kind: "absent" };
    if (errorCode(error) !== "ENOENT") {
      return {
        kind: "invalid",
        problems: [{ source, message: `the config file ${describeReadError(error)}` }],
      };
    }
    const given =
      wording.fromVariable !== undefined
        ? `check the path ${wording.fromVariable} names`
        : wording.configFlag !== undefined
          ? `check the path given with ${wording.configFlag} or XZATOMA_CONFIG`
          : "check the path given";
    return {
      kind: "invalid",
      problems: [
        {
          source,
          message: `the config file does not exist; ${given}`,
          reason: "config-file-missing",
          ...(wording.fromVariable !== undefined ? { variable: wording.fromVariable } : {}),
        },
      ],
    };
  }
  const { LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  // yaml's own unique-key check compares every key of a mapping with every other (20,000
  // keys took 5.5 s); repeatedKeys does it in one pass.
  const document = parseDocument(text, {
    lineCounter: lines,
    prettyErrors: false,
    uniqueKeys: false,
  });
  if (document.errors.length > 0) {
    return {
      kind: "invalid",
      problems: document.errors.map((error) => {
        const position = lines.linePos(error.pos[0]);
        return {
          source,
          message: `invalid YAML: ${error.message}`,
          line: position.line,
          column: position.col,
        };
      }),
    };
  }
  const repeated = repeatedKeys(document, lines, source);
  if (repeated.length > 0) return { kind: "invalid", problems: repeated };
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return {
      kind: "invalid",
      problems: [
        { source, message: `invalid YAML: ${error instanceof Error ? error.message : ""}` },
      ],
    };
  }
  data = withoutNulls(data) ?? {};
  if (typeof data !== "object" || Array.isArray(data)) {
    return {
      kind: "invalid",
      problems: [
        {
          source,
          line: 1,
          message:
            "the file must hold a mapping of settings (key: value) at the top level, like 'agent:' and 'provider:'",
        },
      ],
    };
  }
  return {
    kind: "parsed",
    file: { path, source, data: data as Record<string, unknown>, locate: locator(document, lines) },
  };
}
