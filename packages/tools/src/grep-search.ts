import type { Worker } from "node:worker_threads";
import type { GrepPattern } from "./grep-pattern.js";
import type { GrepWorkerPool } from "./grep-pool.js";
import {
  GREP_COUNTERS,
  type GrepFileMessage,
  type GrepJob,
  type GrepJobMessage,
} from "./grep-protocol.js";

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

/** A search whose workers are taken (or started) at once, while the caller lists the files. */
export interface PendingSearch {
  /** Searches `files` (root-relative paths, in output order). Call once. */
  run(files: readonly string[]): Promise<SearchResult>;
  /** Gives the workers back when the search will not run. */
  cancel(): void;
}

const FILES_PER_WORKER = 256;

interface Active {
  readonly worker: Worker;
  /** The file index last seen in the worker's slot, and since when. */
  seen: number;
  since: number;
  detach(): void;
}

/**
 * Starts a search on workers of `pool`. Workers take files from a shared counter and
 * publish the file they are on; a watchdog terminates a worker stuck on one file longer
 * than the budget (a regex that backtracks catastrophically cannot be interrupted
 * otherwise) and puts a fresh one on the remaining files. Cancelling stops every worker.
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
  let message: GrepJobMessage | undefined;
  let onIdle = () => {};

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
  const post = (slot: number, worker: Worker) => {
    if (message) worker.postMessage({ job: job(slot), files: message.files });
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
      if (active.size === 0) onIdle();
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
      seen: -1,
      since: performance.now(),
      detach: () => {
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
      },
    };
    active.set(slot, entry);
    post(slot, worker);
  };
  const stopAll = () => {
    Atomics.store(state, GREP_COUNTERS.next, 0x7fffffff);
    for (const entry of active.values()) {
      entry.detach();
      pool.discard(entry.worker);
    }
    active.clear();
  };
  for (let slot = 0; slot < options.workers; slot++) take(slot);

  return {
    cancel: stopAll,
    run(files) {
      message = { job: job(0), files: files.join("\0") };
      const wanted = Math.ceil(files.length / FILES_PER_WORKER);
      for (const [slot, entry] of active) {
        if (slot < wanted) {
          post(slot, entry.worker);
        } else {
          active.delete(slot);
          entry.detach();
          pool.release(entry.worker);
        }
      }
      return new Promise<SearchResult>((resolve, reject) => {
        let abandoned = false;
        let settled = false;
        const finish = () => {
          if (settled) return;
          settled = true;
          clearInterval(watchdog);
          options.signal.removeEventListener("abort", onAbort);
          matches.sort((a, b) => a.index - b.index);
          resolve({
            matches,
            binary: Atomics.load(state, GREP_COUNTERS.binary),
            large: Atomics.load(state, GREP_COUNTERS.large),
            unreadable: Atomics.load(state, GREP_COUNTERS.unreadable),
            linked: Atomics.load(state, GREP_COUNTERS.linked),
            searchedAll:
              files.length === 0 || Atomics.load(state, GREP_COUNTERS.next) >= files.length,
            timedOut,
            abandoned,
            errors,
          });
        };
        const onAbort = () => {
          settled = true;
          clearInterval(watchdog);
          stopAll();
          reject(options.signal.reason);
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
        onIdle = finish;
        if (options.signal.aborted) onAbort();
        else options.signal.addEventListener("abort", onAbort, { once: true });
        if (active.size === 0) finish();
      });
    },
  };
}
