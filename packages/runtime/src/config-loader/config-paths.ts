import path from "node:path";

/**
 * The default config file: `$XDG_CONFIG_HOME/xzatoma/config.yaml` when `XDG_CONFIG_HOME`
 * is set to an absolute path (the XDG spec says to ignore a relative one), else
 * `~/.config/xzatoma/config.yaml`.
 *
 * @example
 * defaultConfigPath({}, "/home/ada"); // "/home/ada/.config/xzatoma/config.yaml"
 */
export function defaultConfigPath(
  env: Readonly<Record<string, string | undefined>>,
  homeDir: string,
): string {
  const xdg = env["XDG_CONFIG_HOME"]?.trim();
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(homeDir, ".config");
  return path.join(base, "xzatoma", "config.yaml");
}

/**
 * Expands a leading `~` to `homeDir` and makes a relative path absolute against `baseDir`.
 */
export function resolveUserPath(value: string, homeDir: string, baseDir: string): string {
  const trimmed = value.trim();
  if (trimmed === "~") return homeDir;
  if (trimmed.startsWith("~/")) return path.join(homeDir, trimmed.slice(2));
  return path.resolve(baseDir, trimmed);
}
