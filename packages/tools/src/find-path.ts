import path from "node:path";
import { defineTool, toolFailure, toolSuccess, type Tool } from "@xzatoma/core";
import { FIND_PATH_DESCRIPTION } from "./descriptions/find-path.js";
import { compileGlob, GlobSyntaxError, type CompiledGlob } from "./glob-pattern.js";
import { walkWorkspace } from "./workspace-walk.js";
import type { WorkspaceContext } from "./workspace-context.js";
import { builtinInput } from "./builtin-input.js";

/** Pages hold at most this many results. */
export const MAX_FIND_LIMIT = 1000;
/** The walk stops after this many entries. */
export const DEFAULT_MAX_FIND_ENTRIES = 500_000;

/** Options of {@link createFindPathTool}. */
export interface FindPathToolOptions {
  /** Entries walked at most. Default 500,000. */
  readonly maxEntries?: number;
}

/** Why a glob may not be used, or undefined. Globs stay inside the workspace root. */
export function checkRelativeGlob(glob: string): string | undefined {
  if (glob.includes("\0")) return "The glob contains a NUL byte.";
  const trimmed = glob.trim();
  if (trimmed.startsWith("/") || trimmed.startsWith("~") || /^[A-Za-z]:[\\/]/.test(trimmed)) {
    return `The glob '${glob}' is absolute. Give it relative to the workspace root, e.g. 'src/**/*.ts'.`;
  }
  // A `..` segment anywhere, braces, groups and alternatives included, is refused.
  if (trimmed.split(/[/{},()|]/).includes("..")) {
    return `The glob '${glob}' contains '..'; globs cannot leave the workspace root.`;
  }
  return undefined;
}

/** The `find_path` tool: sorted, paginated glob matches, honouring .gitignore. */
export function createFindPathTool(
  workspace: WorkspaceContext,
  options: FindPathToolOptions = {},
): Tool {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_FIND_ENTRIES;
  return defineTool({
    name: "find_path",
    description: FIND_PATH_DESCRIPTION,
    ...builtinInput("find_path"),
    access: "read",
    async execute(input, context) {
      const problem = checkRelativeGlob(input.glob);
      if (problem) return toolFailure(problem);
      let glob: CompiledGlob;
      try {
        glob = compileGlob(input.glob, { dot: false });
      } catch (error) {
        if (error instanceof GlobSyntaxError) return toolFailure(error.message);
        throw error;
      }
      const limit = Math.min(input.limit, MAX_FIND_LIMIT);
      // Start at the glob's literal directory when it is a real one (no symlink on the way).
      let start = workspace.root;
      const base = glob.base;
      if (base !== "") {
        const lexical = path.join(workspace.root, base);
        const real = await workspace.pathGuard.resolve(lexical).catch(() => undefined);
        if (real === lexical) start = real;
      }
      const matches: string[] = [];
      const depth = (relative: string) => relative.split("/").length;
      let summary: Awaited<ReturnType<typeof walkWorkspace>>;
      try {
        summary = await walkWorkspace(
          {
            root: workspace.root,
            start,
            gitignore: true,
            skipIgnoredStart: true,
            hidden: glob.namesDotEntries,
            maxEntries,
            signal: context.signal,
            ...(glob.maxDepth === undefined
              ? {}
              : { descend: (relative: string) => depth(relative) < (glob.maxDepth ?? 0) }),
          },
          (entry) => {
            const isDirectory = entry.kind === "directory";
            if (glob.matches(entry.relative, isDirectory))
              matches.push(isDirectory ? `${entry.relative}/` : entry.relative);
          },
        );
      } catch (error) {
        if (error instanceof GlobSyntaxError) return toolFailure(error.message);
        throw error;
      }
      matches.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const total = matches.length;
      const stopped =
        summary.complete === false
          ? `\nThe search stopped after ${maxEntries} entries; narrow the glob to see everything.`
          : "";
      const metadata = {
        total,
        offset: input.offset,
        limit,
        complete: summary.complete !== false,
      };
      if (total === 0) {
        return toolSuccess(
          `No matches for '${input.glob}'. Paths ignored by .gitignore are skipped, and names starting with '.' match only when the glob spells the dot.${stopped}`,
          metadata,
        );
      }
      if (input.offset >= total) {
        return toolFailure(
          `offset ${input.offset} is past the last match: '${input.glob}' has ${total} matches.`,
        );
      }
      const page = matches.slice(input.offset, input.offset + limit);
      const last = input.offset + page.length;
      const next = last < total ? `\nMore: call find_path again with offset=${last}.` : "";
      return toolSuccess(
        `Found ${total === 1 ? "1 match" : `${total} matches`} for '${input.glob}' (showing ${input.offset + 1}-${last} of ${total}):\n${page.join("\n")}${next}${stopped}`,
        { ...metadata, shown: page.length },
      );
    },
  });
}
