import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describeError, XzatomaError } from "./errors.js";
import type { z } from "zod";
import { defineTool, type Tool, type ToolDefinitionWithSchema } from "./tool.js";

/** What a tool package's factory receives. */
export interface ToolPackageContext {
  /** The real path of the workspace root. */
  readonly root: string;
  /** The package's own settings from the user's configuration. */
  readonly options: Readonly<Record<string, unknown>>;
}

/**
 * The contract of a third-party tool package: its main module exports
 * `createTools(context)`, returning tools made with `defineTool`.
 */
export interface ToolPackageModule {
  createTools(context: ToolPackageContext): Tool[] | Promise<Tool[]>;
}

/** Options of {@link loadToolPackage}. */
export interface LoadToolPackageOptions {
  readonly context: ToolPackageContext;
  /**
   * Directories to resolve the package name from (each one's `node_modules` and its
   * parents'), tried in order before XZatoma's own installation (where a global install
   * finds packages installed globally beside it). Never the workspace: a package that
   * resolves to a file inside `context.root` is refused whichever directory found it,
   * because the workspace's files are the model's (and a cloned repository's) to write.
   */
  readonly resolveFrom?: string | readonly string[];
}

/** XZatoma's own installation: the directory of this module (or of the bundle that holds it). */
function xzatomaInstallation(): string {
  return path.dirname(fileURLToPath(import.meta.url));
}

function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

function isInside(file: string, directory: string): boolean {
  const relative = path.relative(directory, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** A tool package that cannot be found or does not keep the contract. */
export class ToolPackageError extends XzatomaError {
  override readonly name = "ToolPackageError";
  constructor(
    readonly packageName: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super("TOOL_PACKAGE_INVALID", `Tool package '${packageName}': ${message}`, options);
  }
}

const ACCESS = ["read", "write", "execute", "network"];

function isTool(value: unknown): value is Tool {
  const candidate = value as Partial<Tool> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.name === "string" &&
    typeof candidate.description === "string" &&
    typeof candidate.execute === "function" &&
    typeof candidate.loadInputSchema === "function" &&
    typeof candidate.modelInputSchema === "object" &&
    ACCESS.includes(candidate.access as string)
  );
}

/**
 * A tool made by an earlier `defineTool` (a package built against an older
 * `@xzatoma/core`): a zod schema in `inputSchema`, no `loadInputSchema`. Defined again, so
 * it keeps working.
 */
function fromEarlierDefineTool(value: unknown): Tool | undefined {
  const candidate = value as Partial<ToolDefinitionWithSchema<z.ZodType>> | null;
  if (
    typeof candidate !== "object" ||
    candidate === null ||
    typeof candidate.name !== "string" ||
    typeof candidate.description !== "string" ||
    typeof candidate.execute !== "function" ||
    typeof (candidate.inputSchema as { safeParse?: unknown } | undefined)?.safeParse !==
      "function" ||
    !ACCESS.includes(candidate.access as string)
  )
    return undefined;
  return defineTool(candidate as ToolDefinitionWithSchema<z.ZodType>) as Tool;
}

/**
 * Loads a tool package by name (as the user's config names it), resolved from
 * `resolveFrom` (never from the workspace), and returns its tools, checked against the tool
 * contract. Throws {@link ToolPackageError} when no directory resolves it, or when what
 * resolves is a file inside the workspace (`context.root`): XZatoma never imports the
 * workspace's code into its own process.
 *
 * @example
 * const tools = await loadToolPackage("@acme/notes-tools", { context: { root, options: { directory: "notes" } } });
 */
export async function loadToolPackage(
  packageName: string,
  options: LoadToolPackageOptions,
): Promise<Tool[]> {
  const roots = [
    ...(options.resolveFrom === undefined
      ? []
      : typeof options.resolveFrom === "string"
        ? [options.resolveFrom]
        : options.resolveFrom),
    xzatomaInstallation(),
  ];
  const workspace = realOrSelf(options.context.root);
  let resolved: string | undefined;
  let lastError: unknown;
  for (const from of roots) {
    try {
      resolved = createRequire(path.join(from, "package.json")).resolve(packageName);
      break;
    } catch (error) {
      lastError = error;
    }
  }
  if (resolved === undefined) {
    throw new ToolPackageError(
      packageName,
      `not found from ${roots.join(", ")} (never looked up in the workspace); install it beside the configuration file (npm install --prefix <its directory> ${packageName}) or globally beside XZatoma (npm install --global ${packageName}).`,
      { cause: lastError },
    );
  }
  // The file Node would load, links followed: a package found outside the workspace may
  // still be a link into it, and a root may sit inside it (a project's own configuration).
  const real = realOrSelf(resolved);
  if (isInside(real, workspace)) {
    throw new ToolPackageError(
      packageName,
      `resolves to ${real}, inside the workspace; XZatoma never loads code from the workspace (the model can write it). Install the package beside the configuration file, outside the workspace, or globally.`,
    );
  }
  resolved = real;
  let module: Partial<ToolPackageModule>;
  try {
    module = (await import(pathToFileURL(resolved).href)) as Partial<ToolPackageModule>;
  } catch (error) {
    throw new ToolPackageError(packageName, `failed to load: ${describeError(error)}`, {
      cause: error,
    });
  }
  if (typeof module.createTools !== "function") {
    throw new ToolPackageError(packageName, "it does not export a createTools(context) function.");
  }
  let tools: unknown;
  try {
    tools = await module.createTools(options.context);
  } catch (error) {
    throw new ToolPackageError(packageName, `createTools failed: ${describeError(error)}`, {
      cause: error,
    });
  }
  if (!Array.isArray(tools))
    throw new ToolPackageError(packageName, "createTools must return an array of tools.");
  return tools.map((tool: unknown, index) => {
    const checked = isTool(tool) ? tool : fromEarlierDefineTool(tool);
    if (checked === undefined) {
      throw new ToolPackageError(packageName, `item ${index} is not a tool made with defineTool.`);
    }
    return checked;
  });
}
