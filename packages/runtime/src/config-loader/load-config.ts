import { readFile as readFileFromDisk } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { readConfigFile, type ParsedConfigFile, type ReadTextFile } from "./config-file.js";
import { readProjectConfig, type ProjectConfig } from "./project-config.js";
import { ConfigError, type ConfigProblem, type ConfigSource } from "./config-error.js";
import { defaultConfigPath, resolveUserPath } from "./config-paths.js";
import { PROVIDER_TYPES, type ProviderType } from "@xzatoma/providers";
import type { ConfigFileShape } from "../config/config-schema.js";
import { PATH_KEYS, type RuntimeConfig } from "../config/config-values.js";
import { credentialInFile, findCredentialKeys, withoutKeys } from "./credential-keys.js";
import { closestMatch } from "./did-you-mean.js";
import { ENV_MAPPINGS, ENV_PREFIX, NON_KEY_VARIABLES, type EnvMapping } from "./env-mapping.js";
import { generatedSchemaChecks } from "./generated-schema-checks.js";
import { formatKeyPath } from "./key-path.js";
import { NOT_SURE, type LocateValue, type SchemaChecks } from "./schema-checks.js";
import { convertText, keySegments, type ValueKind } from "./value-kinds.js";

/**
 * One option of a front end's command line and the config key it sets (the CLI's table is
 * its `FLAG_MAPPINGS`). The loader reads options only through such a table.
 */
export interface FlagMapping {
  /** The option's property in the values passed as `flags` (`maxTurns` for `--max-turns`). */
  readonly option: string;
  /** The flag as typed, for messages and `sources` (`--max-turns`). */
  readonly flag: string;
  /** The key path it sets; `SELECTED_MODEL_KEY` means the selected provider's model. */
  readonly key: string;
  /** How a text value is read (numbers and booleans the parser gave pass through). */
  readonly kind: ValueKind;
  /**
   * Turns the option's value into the key's value; `undefined` means "leaves the key alone"
   * (for switches such as `--yolo` that only mean something when given).
   */
  readonly toValue?: (value: unknown) => unknown;
}

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /**
   * `--config FILE`: replaces the default path, and then a missing file is an error.
   * Without it, `XZATOMA_CONFIG` does the same; without both, `defaultConfigPath` is used
   * and may be absent.
   */
  readonly configPath?: string;
  /**
   * The config file used when neither `configPath` nor `XZATOMA_CONFIG` names one; a
   * leading `~` and a relative path are resolved like `configPath`. Default: the XDG
   * default, `$XDG_CONFIG_HOME/xzatoma/config.yaml` or `~/.config/xzatoma/config.yaml`
   * (see `defaultConfigPath`).
   */
  readonly defaultConfigPath?: string;
  /**
   * The front end's option that gives `configPath`, named in the message for a missing
   * file. Default `--config`.
   */
  readonly configFlag?: string;
  /** The environment (`process.env`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Values of the front end's command-line options, by property name (`{ maxTurns: 5 }`),
   * already parsed. Only options the user typed, not the parser's defaults (the CLI picks
   * them with its `pickExplicitFlags`). Names `flagMappings` does not list are ignored.
   */
  readonly flags?: Readonly<Record<string, unknown>>;
  /** Which option sets which key (the CLI's `FLAG_MAPPINGS`). Default: none, so `flags` set nothing. */
  readonly flagMappings?: readonly FlagMapping[];
  /** The user's home directory (`os.homedir()`). */
  readonly homeDir: string;
  /** Base of relative paths from the environment and flags. Default `process.cwd()`. */
  readonly cwd?: string;
  /** Reads the config file. Default: `fs.readFile(path, "utf8")`. */
  readonly readFile?: ReadTextFile;
  /**
   * The workspace: its nearest `.xzatoma/config.yaml` (up to the repository root) is merged
   * under the user's file (see `readProjectConfig` for what applies without trust).
   * Default: no project configuration.
   */
  readonly projectDir?: string;
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
  /**
   * What is accepted but has no effect or is deprecated, one line each, naming where and the
   * key: renamed keys still in use, and `XZATOMA_*` variables that set no key but look like
   * one that does. Front ends print them.
   */
  readonly warnings: readonly string[];
  /** The project's configuration file, when one was found (`projectDir`). */
  readonly project?: {
    readonly path: string;
    readonly trusted: boolean;
    /** Its key paths that did not apply. */
    readonly ignored: readonly string[];
  };
}

interface Assignment {
  readonly segments: readonly string[];
  readonly value: unknown;
  readonly source: ConfigSource;
  /** Counts only where neither the file nor another assignment sets the key. */
  readonly fallback?: boolean;
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
  flagMappings: readonly FlagMapping[],
): ProviderType | undefined {
  const fromFile = (fileData["provider"] as Record<string, unknown> | undefined)?.["type"];
  // The variables that set provider.type, the winning one last.
  const fromEnv = ENV_MAPPINGS.filter((mapping) => mapping.key === "provider.type")
    .map((mapping) => nonEmpty(env[mapping.variable]))
    .filter((value) => value !== undefined)
    .at(-1);
  // The options that set it, likewise.
  const fromFlags = flagMappings
    .filter((mapping) => mapping.key === "provider.type" && Object.hasOwn(flags, mapping.option))
    .map((mapping) => flagValue(mapping, flags[mapping.option]))
    .filter((value) => value !== undefined)
    .at(-1);
  const chosen = fromFlags ?? fromEnv ?? fromFile ?? PROVIDER_TYPES[0];
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
      ...(mapping.layer === "fallback" ? { fallback: true } : {}),
    });
  }
  return assignments;
}

function valueAt(data: unknown, segments: readonly string[]): unknown {
  let current = data;
  for (const segment of segments) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** `XZATOMA_*` variables that set nothing but look like a variable that does. */
function strayVariableWarnings(env: LoadConfigOptions["env"]): string[] {
  const known = new Set<string>([
    ...ENV_MAPPINGS.map((mapping: EnvMapping) => mapping.variable),
    ...NON_KEY_VARIABLES,
  ]);
  const derived = ENV_MAPPINGS.filter((mapping) => mapping.origin === "derived").map(
    (mapping) => mapping.variable,
  );
  const warnings: string[] = [];
  for (const [variable, value] of Object.entries(env)) {
    if (!variable.startsWith(ENV_PREFIX) || known.has(variable)) continue;
    if (value === undefined || value.trim() === "") continue;
    const rest = variable.slice(ENV_PREFIX.length);
    // The shortest names that end like it (XZATOMA_SANDBOX: XZATOMA_AGENT_TERMINAL_SANDBOX).
    const endings = derived
      .filter((name) => name.endsWith(`_${rest}`))
      .sort((a, b) => a.length - b.length);
    const ending = endings.filter((name) => name.length === endings[0]?.length).slice(0, 3);
    const close = closestMatch(variable, derived);
    const meant = ending.length > 0 ? ending : close === undefined ? [] : [close];
    if (meant.length === 0) continue;
    warnings.push(
      `environment variable ${variable}: sets no configuration key; did you mean ${meant.join(" or ")}?`,
    );
  }
  return warnings;
}

/** Keys that still work but have a replacement, with what to use instead. */
const DEPRECATED_KEYS: ReadonlyMap<string, string> = new Map([
  [
    "agent.terminal.default_mode",
    "use agent.approval_policy (interactive is untrusted; restricted_autonomous and full_autonomous are on-escalation)",
  ],
  [
    "agent.chat.default_safety",
    "use agent.approval_policy (safe and yolo are on-escalation; an escalation needs a person in every mode)",
  ],
  // The tree's quota moved to agent.quota; the older names still win when set.
  [
    "agent.subagent.max_executions",
    "use agent.quota.max_executions (this older name still wins over it while it is set)",
  ],
  [
    "agent.subagent.max_total_tokens",
    "use agent.quota.max_total_tokens (this older name still wins over it while it is set)",
  ],
  [
    "agent.subagent.max_total_time",
    "use agent.quota.max_total_time_seconds (this older name still wins over it while it is set)",
  ],
]);

/** One warning per deprecated key that something sets, naming where and what replaces it. */
function deprecationWarnings(assigned: ReadonlyMap<string, string>): string[] {
  const warnings: string[] = [];
  for (const [key, instead] of DEPRECATED_KEYS) {
    const source = assigned.get(key);
    if (source !== undefined) warnings.push(`${key} (set by ${source}) is deprecated: ${instead}.`);
  }
  return warnings;
}

/** The value an option gives its key; `undefined` leaves the key alone. */
function flagValue(mapping: FlagMapping, given: unknown): unknown {
  return mapping.toValue ? mapping.toValue(given) : given;
}

function flagAssignments(
  flags: Readonly<Record<string, unknown>>,
  flagMappings: readonly FlagMapping[],
  provider: ProviderType | undefined,
): Assignment[] {
  const assignments: Assignment[] = [];
  for (const mapping of flagMappings) {
    if (!Object.hasOwn(flags, mapping.option)) continue;
    let value = flagValue(mapping, flags[mapping.option]);
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
 *   flagMappings: [{ option: "maxTurns", flag: "--max-turns", key: "agent.max_turns", kind: "number" }],
 *   homeDir: os.homedir(),
 * });
 * config.agent.maxTurns; // 5
 * sources["agent.max_turns"]; // "flag:--max-turns"
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  try {
    return await loadConfigWith(generatedSchemaChecks, options);
  } catch (error) {
    if (error !== NOT_SURE) throw error;
  }
  // Something to report, or something the generated reader was not made to decide: zod
  // reads it all again and words the problems (docs/explanation/launch-path.md).
  const { zodSchemaChecks } = await import("./zod-schema-checks.js");
  return loadConfigWith(zodSchemaChecks, options);
}

/** {@link loadConfig} with one way of checking values against the schema. */
async function loadConfigWith(
  checks: SchemaChecks,
  options: LoadConfigOptions,
): Promise<LoadedConfig> {
  const own = await loadLayers(checks, options, undefined);
  if (options.projectDir === undefined) return own;
  // The data directory (where trust is kept) is never the project's to set.
  const project = readProjectConfig({
    projectDir: options.projectDir,
    dataDir: own.config.persistence.data_dir,
  });
  if (!project) return own;
  const summary = { path: project.path, trusted: project.trusted, ignored: project.ignored };
  const problems = checks.projectProblems(project.data);
  if (problems !== undefined || Object.keys(project.data).length === 0) {
    const invalid =
      problems === undefined
        ? []
        : [`${project.path}: the project configuration is ignored: ${problems}`];
    return {
      ...own,
      warnings: [...own.warnings, ...project.warnings, ...invalid],
      project: summary,
    };
  }
  const layered = await loadLayers(checks, options, project);
  return { ...layered, warnings: [...layered.warnings, ...project.warnings], project: summary };
}

/** Plain objects merge key by key; anything else in `over` replaces what `under` has. */
function mergeUnder(under: unknown, over: unknown): unknown {
  const isMap = (value: unknown): value is Record<string, unknown> =>
    typeof value === "object" && value !== null && !Array.isArray(value);
  if (!isMap(under) || !isMap(over)) return over === undefined ? under : over;
  const result: Record<string, unknown> = { ...under };
  for (const [key, value] of Object.entries(over)) result[key] = mergeUnder(under[key], value);
  return result;
}

/** The user's configuration file: the flag's, `XZATOMA_CONFIG`'s, or the default one. */
function userConfigPath(options: LoadConfigOptions): {
  path: string;
  explicit: string | undefined;
} {
  const { env, homeDir } = options;
  const cwd = options.cwd ?? process.cwd();
  const explicit = nonEmpty(options.configPath) ?? nonEmpty(env["XZATOMA_CONFIG"]);
  const fallbackPath = nonEmpty(options.defaultConfigPath);
  const configPath =
    explicit !== undefined
      ? resolveUserPath(explicit, homeDir, cwd)
      : fallbackPath !== undefined
        ? resolveUserPath(fallbackPath, homeDir, cwd)
        : defaultConfigPath(env, homeDir);
  return { path: configPath, explicit };
}

/** The user's file as read: its values without credentials, and what is wrong in it. */
interface UserFile {
  readonly file: ParsedConfigFile | undefined;
  readonly data: Record<string, unknown>;
  readonly problems: ConfigProblem[];
  /** Where a value of the file is (its line and column when the file was parsed). */
  readonly locate: LocateValue;
}

/**
 * Reads the user's file at `configPath`. A credential written in it is a problem (and left
 * out of the values), as is every value its key's schema refuses.
 */
async function readUserFile(
  checks: SchemaChecks,
  options: LoadConfigOptions,
  configPath: string,
  explicit: string | undefined,
): Promise<UserFile> {
  const readFile = options.readFile ?? ((file: string) => readFileFromDisk(file, "utf8"));
  const problems: ConfigProblem[] = [];
  const read = await readConfigFile(configPath, readFile, explicit !== undefined, {
    ...(options.configFlag !== undefined ? { configFlag: options.configFlag } : {}),
    ...(explicit !== undefined && nonEmpty(options.configPath) === undefined
      ? { fromVariable: "XZATOMA_CONFIG" }
      : {}),
  });
  if (read.kind === "invalid") problems.push(...read.problems);
  const file = read.kind === "parsed" ? read.file : undefined;
  const locate: LocateValue = (segments, key) =>
    file === undefined
      ? { source: `file:${configPath}` }
      : { source: file.source, ...file.locate(segments, key) };
  if (file === undefined) return { file, data: {}, problems, locate };
  const credentialPaths = findCredentialKeys(file.data);
  for (const credential of credentialPaths) {
    const { message, provider, variable } = credentialInFile(credential);
    problems.push({
      ...locate(credential.slice(0, -1), String(credential[credential.length - 1])),
      keyPath: formatKeyPath(credential),
      message,
      reason: "credential-in-file",
      ...(provider !== undefined ? { provider } : {}),
      ...(variable !== undefined ? { variable } : {}),
    });
  }
  const data = withoutKeys(file.data, credentialPaths) as Record<string, unknown>;
  problems.push(...checks.problemsOf(data, [], locate));
  return { file, data, problems, locate };
}

/**
 * The layers' values merged (`fileData`: the project's under the user's file; the
 * environment and the flags over both, fallbacks only where nothing else set a key), with
 * the source of every key that was set.
 */
function mergeLayers(
  checks: SchemaChecks,
  user: UserFile,
  under: ProjectConfig | undefined,
  fileData: Record<string, unknown>,
  assignments: readonly Assignment[],
): { merged: Record<string, unknown>; assigned: Map<string, ConfigSource> } {
  const assigned = new Map<string, ConfigSource>();
  if (under) checks.forEachLeaf(under.data, (keyPath) => assigned.set(keyPath, under.source));
  if (user.file !== undefined) {
    const source = user.file.source;
    checks.forEachLeaf(user.data, (keyPath) => assigned.set(keyPath, source));
  }
  const merged = structuredClone(fileData);
  for (const assignment of assignments.filter((entry) => entry.fallback !== true)) {
    setAt(merged, assignment.segments, assignment.value);
    assigned.set(formatKeyPath(assignment.segments), assignment.source);
  }
  for (const assignment of assignments.filter((entry) => entry.fallback === true)) {
    if (valueAt(merged, assignment.segments) !== undefined) continue;
    setAt(merged, assignment.segments, assignment.value);
    assigned.set(formatKeyPath(assignment.segments), assignment.source);
  }
  return { merged, assigned };
}

/** {@link loadConfig} with the project's layer (already filtered) under the user's file. */
async function loadLayers(
  checks: SchemaChecks,
  options: LoadConfigOptions,
  under: ProjectConfig | undefined,
): Promise<LoadedConfig> {
  const { env, homeDir } = options;
  const flags = options.flags ?? {};
  const flagMappings = options.flagMappings ?? [];
  const cwd = options.cwd ?? process.cwd();
  const { path: configPath, explicit } = userConfigPath(options);
  const user = await readUserFile(checks, options, configPath, explicit);
  const problems = user.problems;
  // The project's values under the user's file.
  const fileData = under
    ? (mergeUnder(under.data, user.data) as Record<string, unknown>)
    : user.data;
  const provider = selectedProvider(fileData, env, flags, flagMappings);
  const assignments = [
    ...environmentAssignments(env, provider),
    ...flagAssignments(flags, flagMappings, provider),
  ];
  // File problems in line order, then the environment's, then the flags'.
  problems.sort((a, b) =>
    a.source === b.source ? (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) : 0,
  );
  // Each value from the environment or a flag is checked against its key's schema.
  for (const assignment of assignments) {
    problems.push(
      ...checks.problemsOf(assignment.value, assignment.segments, () => ({
        source: assignment.source,
      })),
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const { merged, assigned } = mergeLayers(checks, user, under, fileData, assignments);
  const warnings = [...strayVariableWarnings(env), ...deprecationWarnings(assigned)];
  const parsed = checks.parse(merged, (segments, key) => {
    const source = assigned.get(formatKeyPath(segments)) ?? "default";
    return source.startsWith("file:") ? user.locate(segments, key) : { source };
  });
  // Only rules across keys fail here (each value alone passed above).
  if ("problems" in parsed) throw new ConfigError(parsed.problems);

  const shape = resolvePaths(parsed.data, assigned, { homeDir, cwd, configPath });
  const sources: Record<string, ConfigSource> = {};
  checks.forEachLeaf(shape, (keyPath) => {
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
  return { config, sources, configPath, configFileFound: user.file !== undefined, warnings };
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
  /** What the file sets that has no effect (see `LoadedConfig.warnings`). */
  readonly warnings: readonly string[];
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
    return { valid: true, problems: [], config: loaded.config, warnings: loaded.warnings };
  } catch (error) {
    if (error instanceof ConfigError) {
      return { valid: false, problems: error.problems, warnings: [] };
    }
    throw error;
  }
}
