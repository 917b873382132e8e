import { realpathSync } from "node:fs";
import path from "node:path";
import { loadToolPackage, type Tool } from "@xzatoma/core";

function real(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    return path.resolve(target);
  }
}

function isInside(target: string, directory: string): boolean {
  const relative = path.relative(directory, target);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Where the packages of `agent.tools.packages` are looked up, before XZatoma's own
 * installation: the configuration file's directory, unless that directory is inside the
 * workspace. A project's own configuration (a file in the repository) is no way around the
 * rule that XZatoma never loads code from the workspace: its packages come from XZatoma's
 * installation only.
 */
export function toolPackageRoots(configPath: string | undefined, workspace: string): string[] {
  if (configPath === undefined) return [];
  const directory = path.dirname(real(configPath));
  return isInside(directory, real(workspace)) ? [] : [directory];
}

/** One entry of `agent.tools.packages` after defaults. */
export interface ConfiguredToolPackage {
  readonly name: string;
  readonly options?: Readonly<Record<string, unknown>>;
}

/**
 * Loads the configured tool packages from {@link toolPackageRoots} and XZatoma's
 * installation, never from the workspace (see `loadToolPackage`).
 */
export async function loadConfiguredToolPackages(
  packages: readonly ConfiguredToolPackage[],
  workspace: string,
  configPath: string | undefined,
): Promise<Tool[]> {
  const resolveFrom = toolPackageRoots(configPath, workspace);
  const tools: Tool[] = [];
  for (const entry of packages) {
    tools.push(
      ...(await loadToolPackage(entry.name, {
        context: { root: workspace, options: entry.options ?? {} },
        resolveFrom,
      })),
    );
  }
  return tools;
}
