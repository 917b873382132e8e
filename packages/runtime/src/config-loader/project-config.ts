import { createHash } from "node:crypto";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { projectDirectories } from "../skills/skill-roots.js";
import { openTrustStore } from "../skills/skill-trust.js";
import type { ConfigSource } from "./config-error.js";
import { yaml } from "./yaml.js";

/** The project's configuration file, relative to a project directory. */
export const PROJECT_CONFIG_FILE = path.join(".xzatoma", "config.yaml");

/**
 * Keys a project file sets without the person's trust: they choose a model on the host the
 * user configured and tune the conversation, and can neither run code, widen what the agent
 * may do, send anything elsewhere nor raise a limit. A `*` is one key segment.
 */
export const PROJECT_KEYS_WITHOUT_TRUST: readonly string[] = [
  "provider.ollama.model",
  "provider.openai.model",
  "provider.copilot.model",
  "agent.conversation.*",
];

/**
 * Keys never taken from a project file, trusted or not: where XZatoma keeps its data (the
 * trust store, history and audit log are there), its log file, and paths of files it loads.
 */
export const PROJECT_KEYS_NEVER: readonly string[] = [
  "persistence.*",
  "logging.*",
  "provider.local.model_path",
];

/** The project layer {@link readProjectConfig} found. */
export interface ProjectConfig {
  /** The real path of the file. */
  readonly path: string;
  readonly sha256: string;
  /** Whether a person trusted this content of it (the CLI's `config trust`). */
  readonly trusted: boolean;
  /** What applies: the file's settings less the ignored ones. */
  readonly data: Record<string, unknown>;
  /** Key paths in the file that do not apply (untrusted, or never from a project). */
  readonly ignored: readonly string[];
  readonly source: ConfigSource;
  /** One line per reason a key was ignored, or why the file was. */
  readonly warnings: readonly string[];
}

function matches(pattern: string, keyPath: string): boolean {
  const want = pattern.split(".");
  const have = keyPath.split(".");
  if (want.at(-1) === "*")
    return have.length >= want.length && want.slice(0, -1).every((s, i) => s === have[i]);
  return want.length === have.length && want.every((s, i) => s === have[i]);
}

/** Copies `value`'s leaves whose key path `keep` accepts; lists and scalars are leaves. */
function filterLeaves(
  value: Record<string, unknown>,
  keep: (keyPath: string) => boolean,
  dropped: string[],
  prefix: string[] = [],
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const segments = [...prefix, key];
    const keyPath = segments.join(".");
    const isObject = typeof child === "object" && child !== null && !Array.isArray(child);
    // `mcp.servers.<name>` and the like: a whole map of entries is one setting.
    if (isObject && Object.keys(child).length > 0 && !keyPath.startsWith("mcp.servers")) {
      const kept = filterLeaves(child as Record<string, unknown>, keep, dropped, segments);
      if (Object.keys(kept).length > 0) result[key] = kept;
    } else if (keep(keyPath)) result[key] = child;
    else dropped.push(keyPath);
  }
  return result;
}

/** The nearest `.xzatoma/config.yaml` from `projectDir` up to its repository root. */
export function findProjectConfig(projectDir: string): string | undefined {
  for (const directory of projectDirectories(projectDir)) {
    const candidate = path.join(directory, PROJECT_CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Reads the project's configuration (`.xzatoma/config.yaml`, nearest the workspace) for
 * `loadConfig` to merge under the user's file. A project file arrives with whatever
 * repository was cloned, so until a person trusted its content (the trust store of
 * `dataDir`) only {@link PROJECT_KEYS_WITHOUT_TRUST} apply; {@link PROJECT_KEYS_NEVER}
 * never do. Every ignored key is named in a warning. A file that is not a YAML mapping is
 * ignored with a warning, never an error: a repository cannot stop XZatoma from starting.
 */
export function readProjectConfig(options: {
  projectDir: string;
  dataDir: string;
}): ProjectConfig | undefined {
  const found = findProjectConfig(options.projectDir);
  if (!found) return undefined;
  let real: string;
  let bytes: Buffer;
  try {
    real = realpathSync(found);
    bytes = readFileSync(real);
  } catch {
    return undefined;
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const source: ConfigSource = `file:${real}`;
  const trusted = openTrustStore(options.dataDir).isTrusted({ file: real, sha256 });
  let parsed: unknown;
  try {
    parsed = yaml().parse(bytes.toString("utf8"));
  } catch (error) {
    parsed = error;
  }
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    Array.isArray(parsed) ||
    parsed instanceof Error
  ) {
    return {
      path: real,
      sha256,
      trusted,
      data: {},
      ignored: [],
      source,
      warnings: [`${real}: the project configuration is not a YAML mapping and is ignored`],
    };
  }
  const never: string[] = [];
  const untrusted: string[] = [];
  const data = filterLeaves(
    parsed as Record<string, unknown>,
    (keyPath) => {
      if (PROJECT_KEYS_NEVER.some((pattern) => matches(pattern, keyPath))) {
        never.push(keyPath);
        return false;
      }
      if (trusted || PROJECT_KEYS_WITHOUT_TRUST.some((pattern) => matches(pattern, keyPath)))
        return true;
      untrusted.push(keyPath);
      return false;
    },
    [],
  );
  const warnings: string[] = [];
  if (untrusted.length > 0) {
    warnings.push(
      `${real}: the project configuration is not trusted, so ${untrusted.join(", ")} ${untrusted.length === 1 ? "is" : "are"} ignored: no person has trusted this content of it`,
    );
  }
  if (never.length > 0) {
    warnings.push(
      `${real}: ${never.join(", ")} ${never.length === 1 ? "is" : "are"} never taken from a project's configuration; set ${never.length === 1 ? "it" : "them"} in your own`,
    );
  }
  return { path: real, sha256, trusted, data, ignored: [...never, ...untrusted], source, warnings };
}
