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

    // Calls onChunk(end, last) with buffer[0, end) holding whole lines (`last` for the file's
    // last chunk); stops when it returns true.
    // With `preloaded`, buffer[0, preloaded) already holds the whole file (checked by the
    // caller): it is the one chunk, and nothing is read again.
    function forEachChunk(
      fd: number,
      size: number,
      onChunk: (end: number, last: boolean) => boolean,
      preloaded = 0,
    ): Outcome {
      let carry = preloaded;
      let position = preloaded;
      for (;;) {
        if (position >= size) return carry > 0 && onChunk(carry, true) ? "stopped" : "done";
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
        if (read === 0) return end > 0 && onChunk(end, true) ? "stopped" : "done";
        const lastNewline = buffer.lastIndexOf(10, end - 1);
        if (lastNewline < 0) {
          carry = end;
          continue;
        }
        if (onChunk(lastNewline + 1, position >= size && lastNewline + 1 === end)) {
          // The first read held the whole file: the lines can be scanned from the buffer.
          if (end === position && position >= size) wholeFile = end;
          return "stopped";
        }
        carry = end - lastNewline - 1;
        buffer.copy(buffer, 0, lastNewline + 1, end);
      }
    }
    /** Set by forEachChunk when a chunk stopped it and buffer[0, wholeFile) is the file. */
    let wholeFile = 0;

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

    function lineMatches(line: string): boolean {
      return literal !== null ? line.includes(literal) : lineRegex.test(line);
    }

    // A chunk decoded whole, for a regex: its lines and candidates are found in the text.
    function textChunk(end: number): Chunk {
      const text = buffer.toString("utf8", 0, end);
      return {
        length: text.length,
        newline: (from) => text.indexOf("\n", from),
        count(from, to) {
          let lines = 0;
          for (
            let at = text.indexOf("\n", from);
            at >= 0 && at < to;
            at = text.indexOf("\n", at + 1)
          )
            lines++;
          return lines;
        },
        lastNewline: (before) => (before <= 0 ? -1 : text.lastIndexOf("\n", before - 1)),
        line: (start, stop) =>
          text.charCodeAt(stop - 1) === 13 ? text.slice(start, stop - 1) : text.slice(start, stop),
        // The literal, or the regex (with `m`), over the whole chunk, so lines between
        // candidates are only counted.
        candidate(from) {
          if (from >= text.length) return -1;
          if (literal !== null) return text.indexOf(literal, from);
          if (!chunkSearch) return from;
          chunkSearch.lastIndex = from;
          const found = chunkSearch.exec(text)?.index ?? -1;
          // An empty match after the chunk's last newline (`^$` with `m`) is not on a line.
          return found === text.length && text.endsWith("\n") ? -1 : found;
        },
      };
    }

    // A chunk left as bytes, for plain text: the literal's UTF-8 bytes are found in the bytes
    // (as the test of whole chunks always found them) and only the lines shown are decoded,
    // not the whole chunk. A newline byte is never part of another UTF-8 character, so a
    // line decoded alone is the same text as that line of the chunk decoded.
    function byteChunk(end: number, needle: Buffer): Chunk {
      const view = buffer.subarray(0, end);
      return {
        length: end,
        newline: (from) => view.indexOf(10, from),
        count: (from, to) => countNewlines(view, from, to),
        lastNewline: (before) => (before <= 0 ? -1 : view.lastIndexOf(10, before - 1)),
        line: (start, stop) =>
          view.toString("utf8", start, stop > start && view[stop - 1] === 13 ? stop - 1 : stop),
        candidate: (from) => (from >= end ? -1 : view.indexOf(needle, from)),
      };
    }

    // Scans a file that may match, chunk by chunk, for matches with their context lines.
    function scanLines(fd: number, size: number, index: number, preloaded: number): void {
      const context = data.contextLines;
      const records: GrepRecord[] = [];
      let tail: [number, string][] = []; // the last `context` lines of the previous chunk
      let firstLine = 1; // number of the first line of the chunk
      let matches = 0;
      let lastEmitted = 0;
      let afterLeft = 0; // context lines still to show after the last match
      let truncated = false;

      // The end of the line starting at `start`.
      const lineEnd = (chunk: Chunk, start: number) => {
        const stop = chunk.newline(start);
        return stop < 0 ? chunk.length : stop;
      };
      // The start of the line holding `at` (or ending just before it when `at` is a newline).
      const lineStart = (chunk: Chunk, at: number) => chunk.lastNewline(at) + 1;

      const emitMatch = (chunk: Chunk, start: number, number: number, line: string) => {
        const before: [number, string][] = [];
        for (let at = start, n = number - 1; n > lastEmitted && n >= number - context; n--) {
          if (at === 0) {
            const fromTail = tail.find(([tailNumber]) => tailNumber === n);
            if (fromTail) before.unshift(fromTail);
            continue;
          }
          const previous = lineStart(chunk, at - 1);
          before.unshift([n, chunk.line(previous, at - 1)]);
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
      forEachChunk(
        fd,
        size,
        (end, last) => {
          if (needle && afterLeft === 0) {
            const view = buffer.subarray(0, end);
            if (view.indexOf(needle) < 0) {
              if (last) return false; // no line after it to number or to give context
              // No line here can match: count the lines and keep the last few for context.
              let lines = view[end - 1] === 10 ? 0 : 1;
              lines += countNewlines(view, 0, end);
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
          const chunk = literalBytes ? byteChunk(end, literalBytes) : textChunk(end);
          const length = chunk.length;
          let position = 0;
          let number = firstLine;
          for (;;) {
            // After a match, the next `context` lines are shown; each may be a match itself.
            while (afterLeft > 0 && position < length) {
              const stop = lineEnd(chunk, position);
              const line = chunk.line(position, stop);
              if (lineMatches(line)) {
                if (matches >= data.maxMatches) return (truncated = true);
                emitMatch(chunk, position, number, line);
                afterLeft = context;
              } else {
                records.push([number, 0, cut(line)]);
                lastEmitted = number;
                afterLeft--;
              }
              position = stop + 1;
              number++;
            }
            const candidate = position < length ? chunk.candidate(position) : -1;
            if (candidate < 0) break;
            const start = lineStart(chunk, candidate);
            number += chunk.count(position, start);
            const stop = lineEnd(chunk, Math.max(candidate, start));
            const line = chunk.line(start, stop);
            if (lineMatches(line)) {
              if (matches >= data.maxMatches) return (truncated = true);
              emitMatch(chunk, start, number, line);
              afterLeft = context;
            }
            position = stop + 1;
            number++;
          }
          // The rest of the chunk is only counted, for the next chunk's line numbers.
          if (last) return false;
          number += chunk.count(position, length);
          const endsWithNewline = chunk.lastNewline(length) === length - 1;
          if (!endsWithNewline && position < length) number++;
          if (context > 0) {
            const kept: [number, string][] = [];
            let stop = endsWithNewline ? length - 1 : length;
            for (let n = number - 1; n >= firstLine && kept.length < context; n--) {
              const start = lineStart(chunk, stop);
              kept.unshift([n, chunk.line(start, stop)]);
              stop = start - 1;
            }
            tail = [...tail, ...kept].slice(-context);
          }
          firstLine = number;
          return false;
        },
        preloaded,
      );
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
        wholeFile = 0;
        const outcome = forEachChunk(fd, stats.size, mayMatch);
        if (outcome === "binary") Atomics.add(state, counters.binary, 1);
        else if (outcome === "large") Atomics.add(state, counters.large, 1);
        else if (outcome === "stopped") scanLines(fd, stats.size, index, wholeFile);
      } catch {
        Atomics.add(state, counters.unreadable, 1);
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    }

    return searchFile;
  };
}

/** How reading a file in chunks ended. */
type Outcome = "done" | "stopped" | "binary" | "large";

/**
 * The lines of one chunk, as text or as bytes: offsets are in the one or the other. `line`
 * gives a line's text without a trailing `\r`; `candidate` where the next line that may
 * match holds its match (-1 when none does).
 */
interface Chunk {
  readonly length: number;
  newline(from: number): number;
  /** Newlines in [from, to). */
  count(from: number, to: number): number;
  /** The last newline before `before`, -1 when none is. */
  lastNewline(before: number): number;
  line(start: number, stop: number): string;
  candidate(from: number): number;
}

/**
 * The newline bytes in bytes[from, to), four bytes at a time: a byte of a word that equals
 * 10 becomes 0 under `^ 0x0a0a0a0a`, and the usual exact test (no carry crosses a byte)
 * sets the high bit of each zero byte. Shifted to the low bit, they add up in each byte of
 * a counter for up to 255 words, whose four bytes are then added. Several times faster
 * than a `Buffer.indexOf` call per line.
 */
export function countNewlines(bytes: Uint8Array, from: number, to: number): number {
  let lines = 0;
  let at = from;
  const base = bytes.byteOffset;
  while (at < to && ((base + at) & 3) !== 0) if (bytes[at++] === 10) lines++;
  if (at >= to) return lines;
  const words = new Uint32Array(bytes.buffer, base + at, (to - at) >>> 2);
  const count = words.length;
  for (let index = 0; index < count;) {
    const stop = Math.min(count, index + 255);
    let counter = 0;
    for (; index < stop; index++) {
      const word = (words[index] as number) ^ 0x0a0a0a0a;
      counter = (counter + (~(((word & 0x7f7f7f7f) + 0x7f7f7f7f) | word | 0x7f7f7f7f) >>> 7)) | 0;
    }
    lines +=
      (counter & 0xff) + ((counter >>> 8) & 0xff) + ((counter >>> 16) & 0xff) + (counter >>> 24);
  }
  for (at += count * 4; at < to; at++) if (bytes[at] === 10) lines++;
  return lines;
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
