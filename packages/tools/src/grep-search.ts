import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Worker } from "node:worker_threads";
import type { GrepPattern } from "./grep-pattern.js";
import type { GrepWorkerPool } from "./grep-pool.js";
import {
  GREP_COUNTERS,
  type GrepFileMessage,
  type GrepJob,
  type GrepJobMessage,
  type GrepMoreMessage,
} from "./grep-protocol.js";
import { createGrepScanner } from "./grep-worker.js";

/** Options of {@link startSearch}. */
export interface SearchOptions {
  readonly root: string;
  readonly pattern: GrepPattern;
  readonly contextLines: number;
  readonly maxResults: number;
  readonly maxFileBytes: number;
  readonly maxLineChars: number;
  /** Search files with more than one hard link too (only when a person approved it). */
  readonly readHardLinks?: boolean;
  /** Worker threads at most (fewer for few files). */
  readonly workers: number;
  /** A file that keeps a worker busy longer than this is given up (catastrophic regex). */
  readonly perFileTimeoutMs: number;
  /** After this many given-up files the search stops. */
  readonly maxTimedOutFiles: number;
  readonly signal: AbortSignal;
}

/** What a search found. */
export interface SearchResult {
  /** Files with matches, in file order. */
  readonly matches: readonly GrepFileMessage[];
  readonly binary: number;
  readonly large: number;
  readonly unreadable: number;
  /** Files skipped because they have more than one hard link. */
  readonly linked: number;
  /** False when workers stopped taking files because enough matches were found. */
  readonly searchedAll: boolean;
  /** Indices of files given up because the pattern took too long on them. */
  readonly timedOut: readonly number[];
  /** True when the search stopped after `maxTimedOutFiles` given-up files. */
  readonly abandoned: boolean;
  /** Errors of workers that crashed. */
  readonly errors: readonly string[];
}

/** A search whose workers are taken (or started) at once and search while the files come. */
export interface PendingSearch {
  /** Hands a file (root-relative path) to the workers; its index is the next one. */
  add(file: string): void;
  /** No more files: resolves when the workers are done. Call once. */
  run(): Promise<SearchResult>;
  /** Stops the workers when the search will not run. */
  cancel(): void;
}

/** Time the main thread searches before it yields, in milliseconds. */
const SLICE_MS = 8;

/** Files found by the walk are handed over in batches of this many. */
const BATCH = 256;

interface Active {
  readonly worker: Worker;
  /** Whether the worker has its job (and every file handed over so far). */
  started: boolean;
  /** The file index last seen in the worker's slot, and since when. */
  seen: number;
  since: number;
  detach(): void;
}

/**
 * Starts a search on workers of `pool`. Workers take files from a shared counter as the
 * caller adds them and publish the file they are on; a watchdog terminates a worker stuck
 * on one file longer than the budget (a regex that backtracks catastrophically cannot be
 * interrupted otherwise) and puts a fresh one on the remaining files. Cancelling stops
 * every worker.
 */
export function startSearch(pool: GrepWorkerPool, options: SearchOptions): PendingSearch {
  const shared = new SharedArrayBuffer(
    Int32Array.BYTES_PER_ELEMENT * (GREP_COUNTERS.slots + options.workers),
  );
  const state = new Int32Array(shared);
  const matches: GrepFileMessage[] = [];
  const timedOut: number[] = [];
  const errors: string[] = [];
  const active = new Map<number, Active>();
  const files: string[] = [];
  let handed = 0; // files posted to the started workers
  let final = false;
  let abandoned = false;
  let settled = false;
  let helping = false; // the main thread is searching too
  let resolveResult: (result: SearchResult) => void = () => {};
  let rejectResult: (reason: unknown) => void = () => {};
  const result = new Promise<SearchResult>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });

  const job = (slot: number): GrepJob => ({
    root: options.root,
    source: options.pattern.source,
    flags: options.pattern.flags,
    prefilter: options.pattern.prefilter,
    literal: options.pattern.literal,
    required: options.pattern.required,
    contextLines: options.contextLines,
    maxMatches: options.maxResults,
    maxFileBytes: options.maxFileBytes,
    maxLineChars: options.maxLineChars,
    readHardLinks: options.readHardLinks ?? false,
    shared,
    counters: GREP_COUNTERS,
    slot,
  });
  /** Gives a worker its job with every file handed over so far. */
  const start = (slot: number, entry: Active) => {
    const message: GrepJobMessage = {
      job: job(slot),
      files: files.slice(0, handed).join("\0"),
      final,
    };
    entry.started = true;
    entry.worker.postMessage(message);
  };
  /** Hands the files not yet handed over to every worker. */
  const hand = () => {
    if (handed === files.length && !final) return;
    if (active.size === 0) {
      handed = files.length; // no worker to hand them to: the main thread searches them
      return;
    }
    const more: GrepMoreMessage = { more: files.slice(handed).join("\0"), final };
    handed = files.length;
    for (const [slot, entry] of active) {
      if (entry.started) entry.worker.postMessage(more);
      else start(slot, entry);
    }
  };
  const finish = () => {
    if (settled) return;
    settled = true;
    clearInterval(watchdog);
    options.signal.removeEventListener("abort", onAbort);
    matches.sort((a, b) => a.index - b.index);
    resolveResult({
      matches,
      binary: Atomics.load(state, GREP_COUNTERS.binary),
      large: Atomics.load(state, GREP_COUNTERS.large),
      unreadable: Atomics.load(state, GREP_COUNTERS.unreadable),
      linked: Atomics.load(state, GREP_COUNTERS.linked),
      searchedAll: files.length === 0 || Atomics.load(state, GREP_COUNTERS.next) >= files.length,
      timedOut,
      abandoned,
      errors,
    });
  };
  const take = (slot: number) => {
    Atomics.store(state, GREP_COUNTERS.slots + slot, -1);
    const worker = pool.acquire();
    const finished = (release: boolean) => {
      if (active.get(slot)?.worker !== worker) return;
      active.delete(slot);
      entry.detach();
      if (release) pool.release(worker);
      else pool.discard(worker);
      // Done early (enough matches) or after the last files; otherwise run() decides.
      if (active.size === 0 && !helping && (final || release)) finish();
    };
    const onMessage = (received: GrepFileMessage | "done") => {
      if (received === "done") finished(true);
      else matches.push(received);
    };
    const onError = (error: Error) => {
      errors.push(error.message);
      finished(false);
    };
    const onExit = () => finished(false);
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    const entry: Active = {
      worker,
      started: false,
      seen: -1,
      since: performance.now(),
      detach: () => {
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
      },
    };
    active.set(slot, entry);
    if (handed > 0 || final) start(slot, entry);
  };
  /** Takes files from the counter on the main thread, in slices that yield. */
  const help = async () => {
    helping = true;
    // A scanner of its own: its read buffer (grown for long lines) goes with the search.
    const searchFile = createGrepScanner()(job(0), (message) => matches.push(message));
    const rootPrefix = options.root.endsWith("/") ? options.root : `${options.root}/`;
    let sliceStart = performance.now();
    while (!settled && Atomics.load(state, GREP_COUNTERS.total) < options.maxResults) {
      const index = Atomics.add(state, GREP_COUNTERS.next, 1);
      if (index >= files.length) break;
      searchFile(rootPrefix + (files[index] as string), index);
      if (performance.now() - sliceStart > SLICE_MS) {
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
    }
    helping = false;
    if (active.size === 0) finish();
  };
  const stopAll = () => {
    Atomics.store(state, GREP_COUNTERS.next, 0x7fffffff);
    for (const entry of active.values()) {
      entry.detach();
      pool.discard(entry.worker);
    }
    active.clear();
  };
  const onAbort = () => {
    if (settled) return;
    settled = true;
    clearInterval(watchdog);
    stopAll();
    rejectResult(options.signal.reason);
  };
  const watchdog = setInterval(
    () => {
      const now = performance.now();
      for (const [slot, watched] of active) {
        const current = Atomics.load(state, GREP_COUNTERS.slots + slot);
        if (current !== watched.seen) {
          watched.seen = current;
          watched.since = now;
        } else if (current >= 0 && now - watched.since > options.perFileTimeoutMs) {
          timedOut.push(current);
          active.delete(slot);
          watched.detach();
          pool.discard(watched.worker);
          if (timedOut.length >= options.maxTimedOutFiles) {
            abandoned = true;
            stopAll();
            finish();
            return;
          }
          take(slot);
        }
      }
    },
    Math.max(5, Math.min(100, options.perFileTimeoutMs / 4)),
  );
  for (let slot = 0; slot < options.workers; slot++) take(slot);
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener("abort", onAbort, { once: true });
  // An unobserved rejection of a cancelled search is not an error.
  result.catch(() => {});

  return {
    add(file) {
      files.push(file);
      if (files.length - handed >= BATCH) hand();
    },
    run() {
      final = true;
      hand();
      // Plain text cannot backtrack: the main thread, idle now, searches beside the workers.
      if (options.pattern.literal !== null) void help();
      else if (active.size === 0) finish();
      return result;
    },
    cancel() {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      options.signal.removeEventListener("abort", onAbort);
      stopAll();
    },
  };
}
