import { availableParallelism } from "node:os";
import { defineTool, toolFailure, type Tool } from "@xzatoma/core";
import { isSecretPath } from "@xzatoma/safety";
import { GREP_DESCRIPTION } from "./descriptions/grep.js";
import { refusal, resolveTarget } from "./file-targets.js";
import { compileGlob, GlobSyntaxError } from "./glob-pattern.js";
import { formatGrepOutput } from "./grep-output.js";
import { compileGrepPattern } from "./grep-pattern.js";
import { createGrepWorkerPool } from "./grep-pool.js";
import { startSearch } from "./grep-search.js";
import { assessRead, recordRead } from "./tool-paths.js";
import { createContentScreen } from "./secret-content.js";
import type { GrepFileMessage, GrepRecord } from "./grep-protocol.js";
import { walkWorkspace } from "./workspace-walk.js";
import type { WorkspaceContext } from "./workspace-context.js";
import { builtinInput } from "./builtin-input.js";

/** Defaults of {@link GrepToolOptions}. */
export const DEFAULT_GREP_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_GREP_FILE_TIMEOUT_MS = 1000;
export const MAX_GREP_RESULTS = 1000;
const MAX_LINE_CHARS = 500;
const MAX_WALK_ENTRIES = 500_000;
const MAX_TIMED_OUT_FILES = 3;

/** Options of {@link createGrepTool}. */
export interface GrepToolOptions {
  /** Files larger than this are skipped. Default 10 MiB. */
  readonly maxFileBytes?: number;
  /** A file the pattern takes longer than this on is given up. Default 1000 ms. */
  readonly perFileTimeoutMs?: number;
  /**
   * Worker threads at most. Default: the CPU count, at most 4. A call uses at most one
   * more than the pool has started already, so the first call of a process starts one;
   * plain text on a cold pool starts none and leaves one started after it (`searchWorkers`).
   */
  readonly workers?: number;
}

/** A glob filter: without `/` it tests names at any depth, with one the root-relative path. */
export function pathFilter(glob: string): (relative: string, isDirectory: boolean) => boolean {
  const compiled = compileGlob(glob, { dot: true });
  const byName = !glob.replace(/\/+$/, "").includes("/");
  return (relative, isDirectory) =>
    compiled.matches(
      byName ? relative.slice(relative.lastIndexOf("/") + 1) : relative,
      isDirectory,
    );
}

let defaultWorkers: number | undefined;

/**
 * Up to 4 worker threads, fewer on a machine (or under a CPU limit) with fewer CPUs. Read once
 * per process: `availableParallelism()` reads the cgroup's limit from /proc each time, and a
 * service builds the tool for every event.
 */
function workersByDefault(): number {
  defaultWorkers ??= Math.min(4, availableParallelism());
  return defaultWorkers;
}

/** The `grep` tool: a regex search over the workspace's text files, in worker threads. */
export function createGrepTool(workspace: WorkspaceContext, options: GrepToolOptions = {}): Tool {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_GREP_MAX_FILE_BYTES;
  const workers = options.workers ?? workersByDefault();
  const pool = createGrepWorkerPool();
  return defineTool({
    name: "grep",
    description: GREP_DESCRIPTION,
    ...builtinInput("grep"),
    access: "read",
    async assess(input) {
      return assessRead(workspace, [input.path], "grep");
    },
    async execute(input, context) {
      const compiled = compileGrepPattern(input.pattern, input.case_sensitive);
      if (!compiled.ok) return toolFailure(compiled.message);
      let include: ReturnType<typeof pathFilter> | undefined;
      let exclude: ReturnType<typeof pathFilter> | undefined;
      try {
        include = input.include === undefined ? undefined : pathFilter(input.include);
        exclude = input.exclude === undefined ? undefined : pathFilter(input.exclude);
      } catch (error) {
        if (error instanceof GlobSyntaxError) return toolFailure(error.message);
        throw error;
      }
      const target = await resolveTarget(workspace, input.path, "read");
      if (!target.ok) return refusal(target.message);
      const where = workspace.pathGuard.relative(target.real);
      if (target.stats === undefined) {
        return toolFailure(
          `'${input.path}' does not exist. Use find_path or list_directory to find what to search.`,
        );
      }
      const relative: string[] = [];
      const secretFiles: string[] = [];
      let complete = true;
      const maxResults = Math.min(input.max_results, MAX_GREP_RESULTS);
      const perFileTimeoutMs = options.perFileTimeoutMs ?? DEFAULT_GREP_FILE_TIMEOUT_MS;
      if (!target.stats.isDirectory() && !target.stats.isFile()) {
        return toolFailure(`'${input.path}' is not a regular file or directory.`);
      }
      // Plain text on a cold pool is searched by the main thread alone (below).
      const coldLiteral = compiled.pattern.literal !== null && pool.idle === 0;
      // The workers start now and search the files as the walk finds them.
      const search = startSearch(pool, {
        root: workspace.root,
        pattern: compiled.pattern,
        contextLines: input.context_lines,
        maxResults,
        maxFileBytes,
        maxLineChars: MAX_LINE_CHARS,
        workers: searchWorkers(target.stats.isDirectory(), coldLiteral, workers, pool.idle),
        // A single file was judged by assess: a hard-linked one got a person's yes.
        readHardLinks: !target.stats.isDirectory(),
        perFileTimeoutMs,
        maxTimedOutFiles: MAX_TIMED_OUT_FILES,
        signal: context.signal,
      });
      try {
        if (target.stats.isDirectory()) {
          const summary = await walkWorkspace(
            {
              root: workspace.root,
              start: target.real,
              gitignore: true,
              hidden: true,
              maxEntries: MAX_WALK_ENTRIES,
              signal: context.signal,
              ...(exclude ? { descend: (entry: string) => !exclude(entry, true) } : {}),
            },
            (entry) => {
              if (entry.kind !== "file") return;
              if (include && !include(entry.relative, false)) return;
              if (exclude?.(entry.relative, false)) return;
              if (isSecretPath(entry.relative)) return void secretFiles.push(entry.relative);
              relative.push(entry.relative);
              search.add(entry.relative);
            },
          );
          complete = summary.complete;
        } else {
          await recordRead(workspace, target.real);
          relative.push(where);
          search.add(where);
        }
      } catch (error) {
        search.cancel();
        if (error instanceof GlobSyntaxError) return toolFailure(error.message);
        throw error;
      }
      // The workers searched the files in the walk's order; the output is sorted by path.
      const found = await search.run();
      // The next call gets a worker that started while this one's result went back.
      if (coldLiteral && target.stats.isDirectory()) setImmediate(() => pool.prestart(1));
      // The lines of each file go through the screen together (a secret may span them);
      // the screen keeps line breaks, so each record gets its own line back. The files
      // with matches are shown in path order; the others need no sorting.
      const content = createContentScreen(workspace.exposure, `the grep results in ${where}`);
      const byPath = (a: GrepFileMessage, b: GrepFileMessage) => {
        const left = relative[a.index] as string;
        const right = relative[b.index] as string;
        return left < right ? -1 : left > right ? 1 : 0;
      };
      const result = {
        ...found,
        matches: [...found.matches]
          .sort(byPath)
          .map((file) => ({ ...file, records: screenRecords(file.records, content.screen) })),
      };
      const output = formatGrepOutput({
        input: { pattern: input.pattern, where, contextLines: input.context_lines, maxResults },
        files: relative,
        result,
        complete,
        maxFileBytes,
        perFileTimeoutMs,
        secretFiles,
      });
      return content.finish(output);
    },
  });
}

/**
 * Worker threads for a search. A single file gets one (a regex is only run where the
 * watchdog can stop it). A worker costs tens of milliseconds of CPU to start, as much as
 * searching thousands of files, and on a new process it is not ready before the main thread
 * has searched most of them: plain text on a cold pool is searched by the main thread
 * alone (plain text cannot backtrack, so it needs no watchdog), and the pool gets a worker
 * after the call. Otherwise a pool starts one more worker per call until it has `most`;
 * warm calls get them all.
 */
export function searchWorkers(
  directory: boolean,
  coldLiteral: boolean,
  most: number,
  idle: number,
): number {
  if (!directory) return 1;
  if (coldLiteral) return 0;
  return Math.min(most, idle + 1);
}

/** `records` with their text screened together; each keeps its line. */
function screenRecords(
  records: readonly GrepRecord[],
  screen: (text: string) => string,
): GrepRecord[] {
  const screened = screen(records.map(([, , text]) => text).join("\n")).split("\n");
  if (screened.length !== records.length)
    return records.map(([line, kind, text]) => [line, kind, screen(text)]);
  return records.map(([line, kind], index) => [line, kind, screened[index] ?? ""]);
}
