import type { ConfigSource } from "./config-error.js";
import type { RuntimeConfig } from "../config/config-schema.js";
import { yaml } from "./yaml.js";

/** Options of {@link formatConfig} and {@link formatConfigJson}. */
export interface FormatConfigOptions {
  /** The config file the values were read from, named in the output. */
  readonly configPath?: string;
  /** Whether that file exists. */
  readonly configFileFound?: boolean;
}

function sourceComment(source: ConfigSource): string {
  return source.startsWith("file:") ? " from file" : ` from ${source}`;
}

/**
 * The configuration as YAML for `xzatoma config show`: the file's snake_case keys, each
 * value followed by `# from default`, `# from file`, `# from env:XZATOMA_X` or
 * `# from flag:--x`. The output is itself a valid config file.
 *
 * @example
 * formatConfig(config, sources);
 * // agent:
 * //   max_turns: 5 # from flag:--max-turns
 */
export function formatConfig(
  config: RuntimeConfig,
  sources: Readonly<Record<string, ConfigSource>>,
  options: FormatConfigOptions = {},
): string {
  const { Document, isMap, isScalar, isSeq } = yaml();
  const document = new Document(config);
  for (const [keyPath, source] of Object.entries(sources)) {
    const segments = keyPath.split(".");
    const key = segments.pop();
    const parent = segments.length === 0 ? document.contents : document.getIn(segments, true);
    if (!isMap(parent)) continue;
    const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === key);
    if (pair === undefined) continue;
    const value = pair.value;
    if (isSeq(value) && value.items.every((item) => isScalar(item))) {
      value.flow = true;
      value.comment = sourceComment(source);
    } else if (isScalar(value)) {
      value.comment = sourceComment(source);
    } else if (isScalar(pair.key)) {
      pair.key.comment = sourceComment(source);
    }
  }
  const header = [" XZatoma configuration in effect"];
  if (options.configPath !== undefined) {
    const found = options.configFileFound === false ? " (not found; defaults used)" : "";
    header.push(` config file: ${options.configPath}${found}`);
  }
  document.commentBefore = header.join("\n");
  return document.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/**
 * The configuration as JSON for `xzatoma config show --json`:
 * `{ configPath, configFileFound, config, sources }`, with `config` in the file's
 * snake_case keys and `sources` by key path.
 */
export function formatConfigJson(
  config: RuntimeConfig,
  sources: Readonly<Record<string, ConfigSource>>,
  options: FormatConfigOptions = {},
): string {
  return JSON.stringify(
    {
      ...(options.configPath === undefined ? {} : { configPath: options.configPath }),
      ...(options.configFileFound === undefined
        ? {}
        : { configFileFound: options.configFileFound }),
      config,
      sources,
    },
    null,
    2,
  );
}
