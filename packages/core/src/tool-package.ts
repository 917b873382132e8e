import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describeError, XzatomaError } from "./errors.js";
import type { Tool } from "./tool.js";

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
  /** Where to resolve the package name from (its `node_modules`). Default: the workspace root. */
  readonly resolveFrom?: string;
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

function isTool(value: unknown): value is Tool {
  const candidate = value as Partial<Tool> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.name === "string" &&
    typeof candidate.description === "string" &&
    typeof candidate.execute === "function" &&
    typeof (candidate.inputSchema as { safeParse?: unknown } | undefined)?.safeParse ===
      "function" &&
    ["read", "write", "execute", "network"].includes(candidate.access as string)
  );
}

/**
 * Loads a tool package by name (as the user's config names it), resolved from the
 * workspace, and returns its tools, checked against the tool contract.
 *
 * @example
 * const tools = await loadToolPackage("@acme/notes-tools", { context: { root, options: { directory: "notes" } } });
 */
export async function loadToolPackage(
  packageName: string,
  options: LoadToolPackageOptions,
): Promise<Tool[]> {
  const from = options.resolveFrom ?? options.context.root;
  let resolved: string;
  try {
    resolved = createRequire(path.join(from, "package.json")).resolve(packageName);
  } catch (error) {
    throw new ToolPackageError(
      packageName,
      `not found from ${from}; install it there (npm install ${packageName}).`,
      {
        cause: error,
      },
    );
  }
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
  tools.forEach((tool: unknown, index) => {
    if (!isTool(tool)) {
      throw new ToolPackageError(packageName, `item ${index} is not a tool made with defineTool.`);
    }
  });
  return tools as Tool[];
}
