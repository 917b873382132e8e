import { readFile as readFileFromDisk } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { readConfigFile, type ParsedConfigFile, type ReadTextFile } from "./config-file.js";
import { ConfigError, type ConfigProblem, type ConfigSource } from "./config-error.js";
import { issuesToProblems, type LocateValue } from "./config-issues.js";
import { defaultConfigPath, resolveUserPath } from "./config-paths.js";
import {
  PATH_KEYS,
  PROVIDER_TYPES,
  runtimeConfigSchema as configFileSchema,
  type ConfigFileShape,
  type ProviderType,
  type RuntimeConfig,
} from "@xzatoma/runtime";
import { credentialAdvice, findCredentialKeys, withoutKeys } from "./credential-keys.js";
import { ENV_MAPPINGS } from "./env-mapping.js";
import { FLAG_MAPPINGS } from "./flag-mapping.js";
import { formatKeyPath, isLeafAt, schemaAt, type KeySegments } from "./schema-walk.js";
import { convertText, keySegments } from "./value-kinds.js";

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /**
   * `--config FILE`: replaces the default path, and then a missing file is an error.
   * Without it, `XZATOMA_CONFIG` does the same; without both, the XDG default is used and
   * may be absent.
   */
  readonly configPath?: string;
  /** The environment (`process.env`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Option values commander parsed, by property name (`{ maxTurns: 5 }`); see
   * `FLAG_MAPPINGS`. Only options the user typed: see `pickExplicitFlags`.
   */
  readonly flags?: Readonly<Record<string, unknown>>;
  /** The user's home directory (`os.homedir()`). */
  readonly homeDir: string;
  /** Base of relative paths from the environment and flags. Default `process.cwd()`. */
  readonly cwd?: string;
  /** Reads the config file. Default: `fs.readFile(path, "utf8")`. */
  readonly readFile?: ReadTextFile;
}

/** The outcome of {@link loadConfig}. */
export interface LoadedConfig {
  readonly config: RuntimeConfig;
  /**
   * Where each value came from, by snake_case key path (`agent.max_turns`): `default`,
   * `file:<path>`, `env:<VARIABLE>` or `flag:<--flag>`. Lists are one entry.
   */
  readonly sources: Readonly<Record<string, ConfigSource>>;
  /** The config file path that was used (whether or not it exists). */
  readonly configPath: string;
  /** Whether that file exists and was read. */
  readonly configFileFound: boolean;
}

interface Assignment {
  readonly segments: readonly string[];
  readonly value: unknown;
  readonly source: ConfigSource;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
}

function asProviderType(value: unknown): ProviderType | undefined {
  const text = typeof value === "string" ? value.trim() : undefined;
  return (PROVIDER_TYPES as readonly string[]).includes(text ?? "")
    ? (text as ProviderType)
    : undefined;
}

/** The provider that will be selected, so `--model` and `XZATOMA_MODEL` can target its model key. */
function selectedProvider(
  fileData: Record<string, unknown>,
  env: LoadConfigOptions["env"],
  flags: Readonly<Record<string, unknown>>,
): ProviderType | undefined {
  const fromFile = (fileData["provider"] as Record<string, unknown> | undefined)?.["type"];
  const chosen =
    flags["provider"] ?? nonEmpty(env["XZATOMA_PROVIDER"]) ?? fromFile ?? PROVIDER_TYPES[0];
  return asProviderType(chosen);
}

function setAt(target: Record<string, unknown>, segments: readonly string[], value: unknown): void {
  let current = target;
  segments.forEach((segment, index) => {
    if (index === segments.length - 1) {
      current[segment] = value;
      return;
    }
    const next = current[segment];
    if (typeof next !== "object" || next === null || Array.isArray(next)) current[segment] = {};
    current = current[segment] as Record<string, unknown>;
  });
}

/** Calls `visit` for every leaf (a value that is not an object of config keys) in `value`. */
function forEachLeaf(
  value: unknown,
  visit: (keyPath: string) => void,
  segments: KeySegments = [],
): void {
  if (segments.length > 0 && isLeafAt(configFileSchema, segments)) {
    if (value !== undefined) visit(formatKeyPath(segments));
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [key, child] of Object.entries(value)) forEachLeaf(child, visit, [...segments, key]);
}

/** Checks one value from the environment or a flag against its key's schema. */
function checkAssignment(assignment: Assignment): ConfigProblem[] {
  const schema = schemaAt(configFileSchema, assignment.segments);
  if (schema === undefined) return [];
  const result = schema.safeParse(assignment.value);
  if (result.success) return [];
  return issuesToProblems(result.error.issues, assignment.value, assignment.segments, () => ({
    source: assignment.source,
  }));
}

function environmentAssignments(
  env: LoadConfigOptions["env"],
  provider: ProviderType | undefined,
): Assignment[] {
  const assignments: Assignment[] = [];
  for (const mapping of ENV_MAPPINGS) {
    const text = env[mapping.variable];
    if (text === undefined || text.trim() === "") continue;
    const segments = keySegments(mapping.key, provider);
    if (segments === undefined) continue;
    assignments.push({
      segments,
      value: convertText(text, mapping.kind),
      source: `env:${mapping.variable}`,
    });
  }
  return assignments;
}

function flagAssignments(
  flags: Readonly<Record<string, unknown>>,
  provider: ProviderType | undefined,
): Assignment[] {
  const assignments: Assignment[] = [];
  for (const mapping of FLAG_MAPPINGS) {
    if (!Object.hasOwn(flags, mapping.option)) continue;
    const given = flags[mapping.option];
    let value = mapping.toValue ? mapping.toValue(given) : given;
    if (value === undefined) continue;
    if (typeof value === "string") value = convertText(value, mapping.kind);
    const segments = keySegments(mapping.key, provider);
    if (segments === undefined) continue;
    assignments.push({ segments, value, source: `flag:${mapping.flag}` });
  }
  return assignments;
}

/**
 * Loads the configuration: defaults < config file < `XZATOMA_*` environment variables <
 * command-line flags. Every value is validated against one strict schema; all problems
 * are collected and thrown together as a {@link ConfigError}, each naming its file and
 * line, variable or flag, and key path.
 *
 * @example
 * const { config, sources } = await loadConfig({
 *   env: process.env,
 *   flags: { maxTurns: 5 },
 *   homeDir: os.homedir(),
 * });
 * config.agent.maxTurns; // 5
 * sources["agent.max_turns"]; // "flag:--max-turns"
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const { env, homeDir } = options;
  const flags = options.flags ?? {};
  const cwd = options.cwd ?? process.cwd();
  const readFile = options.readFile ?? ((file: string) => readFileFromDisk(file, "utf8"));
  const explicit = nonEmpty(options.configPath) ?? nonEmpty(env["XZATOMA_CONFIG"]);
  const configPath =
    explicit === undefined
      ? defaultConfigPath(env, homeDir)
      : resolveUserPath(explicit, homeDir, cwd);

  const problems: ConfigProblem[] = [];
  let file: ParsedConfigFile | undefined;
  let fileData: Record<string, unknown> = {};
  const read = await readConfigFile(configPath, readFile, explicit !== undefined);
  if (read.kind === "invalid") problems.push(...read.problems);
  const locateInFile: LocateValue = (segments, key) =>
    file === undefined
      ? { source: `file:${configPath}` }
      : { source: file.source, ...file.locate(segments, key) };
  if (read.kind === "parsed") {
    file = read.file;
    const credentialPaths = findCredentialKeys(file.data);
    for (const credential of credentialPaths) {
      problems.push({
        ...locateInFile(credential.slice(0, -1), String(credential[credential.length - 1])),
        keyPath: formatKeyPath(credential),
        message: credentialAdvice(credential),
      });
    }
    fileData = withoutKeys(file.data, credentialPaths) as Record<string, unknown>;
    const parsed = configFileSchema.safeParse(fileData);
    if (!parsed.success) {
      problems.push(...issuesToProblems(parsed.error.issues, fileData, [], locateInFile));
    }
  }

  const provider = selectedProvider(fileData, env, flags);
  const assignments = [
    ...environmentAssignments(env, provider),
    ...flagAssignments(flags, provider),
  ];
  // File problems in line order, then the environment's, then the flags'.
  problems.sort((a, b) =>
    a.source === b.source ? (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) : 0,
  );
  for (const assignment of assignments) problems.push(...checkAssignment(assignment));
  if (problems.length > 0) throw new ConfigError(problems);

  const assigned = new Map<string, ConfigSource>();
  if (file !== undefined) {
    const source = file.source;
    forEachLeaf(fileData, (keyPath) => assigned.set(keyPath, source));
  }
  const merged = structuredClone(fileData);
  for (const assignment of assignments) {
    setAt(merged, assignment.segments, assignment.value);
    assigned.set(formatKeyPath(assignment.segments), assignment.source);
  }
  const parsed = configFileSchema.safeParse(merged);
  if (!parsed.success) {
    // Only rules across keys fail here (each value alone passed above).
    throw new ConfigError(
      issuesToProblems(parsed.error.issues, merged, [], (segments, key) => {
        const source = assigned.get(formatKeyPath(segments)) ?? "default";
        return source.startsWith("file:") ? locateInFile(segments, key) : { source };
      }),
    );
  }

  const shape = resolvePaths(parsed.data, assigned, { homeDir, cwd, configPath });
  const sources: Record<string, ConfigSource> = {};
  forEachLeaf(shape, (keyPath) => {
    sources[keyPath] = assigned.get(keyPath) ?? "default";
  });
  if (!assigned.has("persistence.db_path")) {
    sources["persistence.db_path"] = sources["persistence.data_dir"] ?? "default";
  }
  const dataDir = shape.persistence.data_dir ?? path.join(homeDir, ".xzatoma");
  const config: RuntimeConfig = {
    ...shape,
    persistence: {
      ...shape.persistence,
      data_dir: dataDir,
      db_path: shape.persistence.db_path ?? path.join(dataDir, "history.db"),
    },
  };
  return {
    config,
    sources,
    configPath,
    configFileFound: file !== undefined,
  };
}

/** Expands `~` and makes paths absolute (file values against the file's directory), and fills in the data paths. */
function resolvePaths(
  shape: ConfigFileShape,
  assigned: ReadonlyMap<string, ConfigSource>,
  where: { homeDir: string; cwd: string; configPath: string },
): ConfigFileShape {
  const result = structuredClone(shape);
  for (const keyPath of PATH_KEYS) {
    const segments = keyPath.split(".");
    const parent = segments
      .slice(0, -1)
      .reduce<Record<string, unknown>>(
        (object, segment) => object[segment] as Record<string, unknown>,
        result as unknown as Record<string, unknown>,
      );
    const key = segments[segments.length - 1] ?? "";
    const value = parent[key];
    if (typeof value !== "string") continue;
    const fromFile = assigned.get(keyPath)?.startsWith("file:") === true;
    parent[key] = resolveUserPath(
      value,
      where.homeDir,
      fromFile ? path.dirname(where.configPath) : where.cwd,
    );
  }
  const dataDir = result.persistence.data_dir ?? path.join(where.homeDir, ".xzatoma");
  result.persistence.data_dir = dataDir;
  result.persistence.db_path ??= path.join(dataDir, "history.db");
  return result;
}

/** The outcome of {@link validateConfigFile}. */
export interface ConfigValidation {
  readonly valid: boolean;
  /** Every problem found; empty when valid. */
  readonly problems: readonly ConfigProblem[];
  /** The configuration the file gives (defaults filled in), when valid. */
  readonly config?: RuntimeConfig;
}

/**
 * Validates one config file on its own, without environment variables or flags (for
 * `xzatoma config validate FILE` and tests), so the caller's environment cannot leak in.
 * A missing file is a problem.
 */
export async function validateConfigFile(
  configPath: string,
  options: { readonly homeDir?: string; readonly readFile?: ReadTextFile } = {},
): Promise<ConfigValidation> {
  try {
    const loaded = await loadConfig({
      configPath,
      env: {},
      homeDir: options.homeDir ?? os.homedir(),
      ...(options.readFile ? { readFile: options.readFile } : {}),
    });
    return { valid: true, problems: [], config: loaded.config };
  } catch (error) {
    if (error instanceof ConfigError) return { valid: false, problems: error.problems };
    throw error;
  }
}
