import { XzatomaError } from "@xzatoma/core";

/**
 * Where a value came from: `default`, `file:<path>`, `env:<VARIABLE>` or `flag:<--flag>`.
 */
export type ConfigSource = "default" | `file:${string}` | `env:${string}` | `flag:${string}`;

/** One thing wrong with the configuration. */
export interface ConfigProblem {
  /** The file, environment variable or flag that holds the bad value. */
  readonly source: ConfigSource;
  /** The key path (`agent.max_turns`), when the problem belongs to one key. */
  readonly keyPath?: string;
  /** What is wrong, e.g. `expected a positive integer, got "ten"`. */
  readonly message: string;
  /** 1-based line in the config file, when known. */
  readonly line?: number;
  /** 1-based column in the config file, when known. */
  readonly column?: number;
  /**
   * What kind of problem, for a front end's advice: a credential written into the file, or
   * a config file that was named but does not exist. Absent for a plain invalid value.
   */
  readonly reason?: "credential-in-file" | "config-file-missing";
  /** The provider a credential in the file belongs to (`openai`, `copilot`). */
  readonly provider?: string;
  /** The environment variable involved: where the credential belongs, or where the path came from. */
  readonly variable?: string;
}

/** Where a problem is, as people read it: `config.yaml:3:5`, `environment variable X`, `flag --x`. */
function describeSource(problem: ConfigProblem): string {
  const { source } = problem;
  if (source.startsWith("file:")) {
    const file = source.slice("file:".length);
    if (problem.line === undefined) return file;
    return problem.column === undefined
      ? `${file}:${problem.line}`
      : `${file}:${problem.line}:${problem.column}`;
  }
  if (source.startsWith("env:")) return `environment variable ${source.slice("env:".length)}`;
  if (source.startsWith("flag:")) return `flag ${source.slice("flag:".length)}`;
  return "built-in default";
}

/** One line for `problem`: `<where>: <key path>: <message>`. */
export function formatConfigProblem(problem: ConfigProblem): string {
  const key = problem.keyPath === undefined || problem.keyPath === "" ? "" : `${problem.keyPath}: `;
  return `${describeSource(problem)}: ${key}${problem.message}`;
}

/**
 * The configuration cannot be used. `problems` lists every problem found, each naming its
 * file (and line), environment variable or flag, and the key path. Code `CONFIG_INVALID`.
 */
export class ConfigError extends XzatomaError<{ readonly problems: readonly ConfigProblem[] }> {
  override readonly name = "ConfigError";

  constructor(readonly problems: readonly ConfigProblem[]) {
    const lines = problems.map(formatConfigProblem);
    super(
      "CONFIG_INVALID",
      lines.length === 1
        ? `Invalid configuration: ${lines[0] ?? ""}`
        : `Invalid configuration (${lines.length} problems):\n${lines.map((line) => `  - ${line}`).join("\n")}`,
      { fields: { problems } },
    );
  }
}
