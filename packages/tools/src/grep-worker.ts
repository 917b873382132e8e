// The grep worker thread, built as its own entry (`dist/grep-worker.cjs`: a worker starts
// about 10 ms sooner from CommonJS than from an ES module) and started by `grep-pool.ts`
// from the file next to it. It imports only Node's modules and types, so that Node can run
// it from source too (the package's tests run `src/`). Each message is one job; the worker
// answers with a message per file with matches, then "done".
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync } from "node:fs";
import type {
  GrepFileMessage,
  GrepJob,
  GrepJobMessage,
  GrepMoreMessage,
  GrepRecord,
} from "./grep-protocol.js";

/**
 * Prepares a job: returns the search of one file (its absolute path and index), which
 * posts a message when the file has matches.
 */
export type GrepScanner = (
  job: GrepJob,
  post: (message: GrepFileMessage) => void,
) => (file: string, index: number) => void;

/**
 * A scanner with its own read buffer (one per thread). For each file it first tests whole
 * line-aligned chunks (bytes for a literal or for text every match contains, then the
 * regex with `m`), and only a file that may match is scanned for lines with context. It
 * reads with one reused buffer, never a whole large file at once.
 */
export function createGrepScanner(): GrepScanner {
  const openFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  let buffer = Buffer.allocUnsafe(256 * 1024);
  let canCheckDescriptors = true;

  return (data, post) => {
    const state = new Int32Array(data.shared);
    const counters = data.counters;
    const lineRegex = new RegExp(data.source, data.flags);
    const chunkRegex = data.prefilter ? new RegExp(data.source, `${data.flags}m`) : undefined;
    const chunkSearch = data.prefilter ? new RegExp(data.source, `${data.flags}gm`) : undefined;
    const literal = data.literal;
    const literalBytes = literal === null ? undefined : Buffer.from(literal, "utf8");
    const requiredBytes = data.required === null ? undefined : Buffer.from(data.required, "utf8");
    const rootPrefix = data.root.endsWith("/") ? data.root : `${data.root}/`;

    // Calls onChunk(end) with buffer[0, end) holding whole lines; stops when it returns true.
    function forEachChunk(fd: number, size: number, onChunk: (end: number) => boolean): string {
      let carry = 0;
      let position = 0;
      for (;;) {
        if (position >= size) return carry > 0 && onChunk(carry) ? "stopped" : "done";
        if (carry === buffer.length) {
          const larger = Buffer.allocUnsafe(buffer.length * 2);
          buffer.copy(larger, 0, 0, carry);
          buffer = larger;
        }
        const read = readSync(fd, buffer, carry, buffer.length - carry, position);
        if (position === 0 && buffer.subarray(0, Math.min(read, 8192)).includes(0)) return "binary";
        position += read;
        if (position > data.maxFileBytes) return "large";
        const end = carry + read;
        if (read === 0) return end > 0 && onChunk(end) ? "stopped" : "done";
        const lastNewline = buffer.lastIndexOf(10, end - 1);
        if (lastNewline < 0) {
          carry = end;
          continue;
        }
        if (onChunk(lastNewline + 1)) return "stopped";
        carry = end - lastNewline - 1;
        buffer.copy(buffer, 0, lastNewline + 1, end);
      }
    }

    function mayMatch(end: number): boolean {
      const view = buffer.subarray(0, end);
      if (requiredBytes && view.indexOf(requiredBytes) < 0) return false;
      if (literalBytes) return view.indexOf(literalBytes) >= 0;
      if (chunkRegex) return chunkRegex.test(buffer.toString("utf8", 0, end));
      return true;
    }

    function cut(text: string): string {
      return text.length > data.maxLineChars ? `${text.slice(0, data.maxLineChars)} [...]` : text;
    }

    // Where the next line that may match starts at or after `from`: the literal or the
    // regex (with `m`) over the whole chunk, so lines between candidates are only counted.
    function nextCandidate(text: string, from: number): number {
      if (literal !== null) return text.indexOf(literal, from);
      if (!chunkSearch) return from < text.length ? from : -1;
      chunkSearch.lastIndex = from;
      return chunkSearch.exec(text)?.index ?? -1;
    }

    function lineEnd(text: string, start: number): number {
      const stop = text.indexOf("\n", start);
      return stop < 0 ? text.length : stop;
    }

    // The start of the line holding `at` (or ending just before it when `at` is a newline).
    function lineStart(text: string, at: number): number {
      return at === 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
    }

    function lineAt(text: string, start: number, end: number): string {
      return text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
    }

    function lineMatches(line: string): boolean {
      return literal !== null ? line.includes(literal) : lineRegex.test(line);
    }

    // Scans a file that may match, chunk by chunk, for matches with their context lines.
    function scanLines(fd: number, size: number, index: number): void {
      const context = data.contextLines;
      const records: GrepRecord[] = [];
      let tail: [number, string][] = []; // the last `context` lines of the previous chunk
      let firstLine = 1; // number of the first line of the chunk
      let matches = 0;
      let lastEmitted = 0;
      let afterLeft = 0; // context lines still to show after the last match
      let truncated = false;

      const emitMatch = (text: string, start: number, number: number, line: string) => {
        const before: [number, string][] = [];
        for (let at = start, n = number - 1; n > lastEmitted && n >= number - context; n--) {
          if (at === 0) {
            const fromTail = tail.find(([tailNumber]) => tailNumber === n);
            if (fromTail) before.unshift(fromTail);
            continue;
          }
          const previous = lineStart(text, at - 1);
          before.unshift([n, lineAt(text, previous, at - 1)]);
          at = previous;
        }
        const first = before[0]?.[0] ?? number;
        if (context > 0 && records.length > 0 && first > lastEmitted + 1) records.push([0, 2, ""]);
        for (const [n, beforeText] of before) records.push([n, 0, cut(beforeText)]);
        records.push([number, 1, cut(line)]);
        matches++;
        lastEmitted = number;
      };

      const needle = requiredBytes ?? literalBytes;
      forEachChunk(fd, size, (end) => {
        if (needle && afterLeft === 0) {
          const view = buffer.subarray(0, end);
          if (view.indexOf(needle) < 0) {
            // No line here can match: count the lines and keep the last few for context.
            let lines = view[end - 1] === 10 ? 0 : 1;
            for (let at = view.indexOf(10); at >= 0; at = view.indexOf(10, at + 1)) lines++;
            const kept: [number, string][] = [];
            let stop = view[end - 1] === 10 ? end - 1 : end;
            for (let n = firstLine + lines - 1; n >= firstLine && kept.length < context; n--) {
              const start = stop === 0 ? 0 : view.lastIndexOf(10, stop - 1) + 1;
              const line = buffer.toString("utf8", start, stop);
              kept.unshift([n, line.endsWith("\r") ? line.slice(0, -1) : line]);
              stop = start - 1;
            }
            if (context > 0) tail = [...tail, ...kept].slice(-context);
            firstLine += lines;
            return false;
          }
        }
        const text = buffer.toString("utf8", 0, end);
        let position = 0;
        let number = firstLine;
        for (;;) {
          // After a match, the next `context` lines are shown; each may be a match itself.
          while (afterLeft > 0 && position < text.length) {
            const stop = lineEnd(text, position);
            const line = lineAt(text, position, stop);
            if (lineMatches(line)) {
              if (matches >= data.maxMatches) return (truncated = true);
              emitMatch(text, position, number, line);
              afterLeft = context;
            } else {
              records.push([number, 0, cut(line)]);
              lastEmitted = number;
              afterLeft--;
            }
            position = stop + 1;
            number++;
          }
          const candidate = position < text.length ? nextCandidate(text, position) : -1;
          if (candidate < 0) break;
          const start = lineStart(text, candidate);
          for (
            let at = text.indexOf("\n", position);
            at >= 0 && at < start;
            at = text.indexOf("\n", at + 1)
          )
            number++;
          const stop = lineEnd(text, Math.max(candidate, start));
          const line = lineAt(text, start, stop);
          if (lineMatches(line)) {
            if (matches >= data.maxMatches) return (truncated = true);
            emitMatch(text, start, number, line);
            afterLeft = context;
          }
          position = stop + 1;
          number++;
        }
        for (let at = text.indexOf("\n", position); at >= 0; at = text.indexOf("\n", at + 1))
          number++;
        if (!text.endsWith("\n") && position < text.length) number++;
        if (context > 0) {
          const kept: [number, string][] = [];
          let stop = text.endsWith("\n") ? text.length - 1 : text.length;
          for (let n = number - 1; n >= firstLine && kept.length < context; n--) {
            const start = lineStart(text, stop);
            kept.unshift([n, lineAt(text, start, stop)]);
            stop = start - 1;
          }
          tail = [...tail, ...kept].slice(-context);
        }
        firstLine = number;
        return false;
      });
      if (matches === 0) return;
      Atomics.add(state, counters.total, matches);
      const message: GrepFileMessage = { index, matches, truncated, records };
      post(message);
    }

    function searchFile(file: string, index: number): void {
      let fd: number | undefined;
      try {
        fd = openSync(file, openFlags);
        const stats = fstatSync(fd);
        if (!stats.isFile()) return void Atomics.add(state, counters.unreadable, 1);
        if (stats.size > data.maxFileBytes) return void Atomics.add(state, counters.large, 1);
        // Another name of a hard-linked file may be outside the workspace.
        if (stats.nlink > 1 && !data.readHardLinks)
          return void Atomics.add(state, counters.linked, 1);
        if (canCheckDescriptors) {
          // The walk saw this path inside the root; refuse it if it was swapped since.
          try {
            const opened = readlinkSync(`/proc/self/fd/${fd}`);
            if (!opened.startsWith(rootPrefix))
              return void Atomics.add(state, counters.unreadable, 1);
          } catch {
            canCheckDescriptors = false;
          }
        }
        const outcome = forEachChunk(fd, stats.size, mayMatch);
        if (outcome === "binary") Atomics.add(state, counters.binary, 1);
        else if (outcome === "large") Atomics.add(state, counters.large, 1);
        else if (outcome === "stopped") scanLines(fd, stats.size, index);
      } catch {
        Atomics.add(state, counters.unreadable, 1);
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    }

    return searchFile;
  };
}

/** A job in progress: the files known so far, and an index taken before its file came. */
interface Running {
  readonly job: GrepJob;
  readonly state: Int32Array;
  readonly files: string[];
  final: boolean;
  waiting: number;
  readonly search: (file: string, index: number) => void;
}

/**
 * Takes file indices from the shared counter and searches them until enough matches were
 * found or, once the last files came, none are left: true then. False when the index taken
 * is past the files known so far: the job waits for more.
 */
function drain(running: Running): boolean {
  const { job, state, files } = running;
  const counters = job.counters;
  const slot = counters.slots + job.slot;
  const rootPrefix = job.root.endsWith("/") ? job.root : `${job.root}/`;
  for (;;) {
    if (Atomics.load(state, counters.total) >= job.maxMatches) return true;
    const index = running.waiting >= 0 ? running.waiting : Atomics.add(state, counters.next, 1);
    running.waiting = -1;
    if (index >= files.length) {
      if (running.final) return true;
      running.waiting = index;
      return false;
    }
    Atomics.store(state, slot, index);
    running.search(rootPrefix + (files[index] as string), index);
    Atomics.store(state, slot, -1);
  }
}

const split = (files: string): string[] => (files === "" ? [] : files.split("\0"));

/** The `workerData` the pool starts this module with: only then does it serve jobs. */
export const GREP_WORKER_DATA = "xzatoma-grep-worker";
/**
 * The argument the pool starts this module with (added to `process.argv`): without it,
 * the module does not load `node:worker_threads` just to find out it is not a worker.
 */
export const GREP_WORKER_ARGUMENT = "--xzatoma-grep-worker";

// Imported elsewhere (the main thread takes the scanner for plain-text searches), the
// module serves nothing, even inside some other worker or with the argument in a
// command line: only a worker started with both serves.
const threads = process.argv.includes(GREP_WORKER_ARGUMENT)
  ? process.getBuiltinModule("node:worker_threads")
  : undefined;
const port = threads?.workerData === GREP_WORKER_DATA ? threads.parentPort : null;
if (port) {
  const prepare = createGrepScanner();
  const post = (message: GrepFileMessage) => port.postMessage(message);
  let running: Running | undefined;
  port.on("message", (message: GrepJobMessage | GrepMoreMessage) => {
    if ("job" in message) {
      running = {
        job: message.job,
        state: new Int32Array(message.job.shared),
        files: split(message.files),
        final: message.final,
        waiting: -1,
        search: prepare(message.job, post),
      };
    } else if (running) {
      for (const file of split(message.more)) running.files.push(file);
      running.final = message.final;
    } else {
      return; // more files of a job this worker already finished
    }
    if (drain(running)) {
      running = undefined;
      port.postMessage("done");
    }
  });
}
