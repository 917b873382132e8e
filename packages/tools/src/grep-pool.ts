import { Worker } from "node:worker_threads";

/** Idle grep workers are stopped after this long. */
export const GREP_WORKER_IDLE_MS = 30_000;

/**
 * The worker's module: `grep-worker.cjs` next to the built bundle (`dist/`), or the source
 * file when this module runs from `src/` (the package's tests, on a Node that strips types).
 */
export const GREP_WORKER_URL = new URL(
  import.meta.url.endsWith(".ts") ? "./grep-worker.ts" : "./grep-worker.cjs",
  import.meta.url,
);

/** Worker threads kept warm between searches: no start-up cost, code already optimised. */
export interface GrepWorkerPool {
  /** Workers started and waiting for a job. */
  readonly idle: number;
  /** An idle worker, or a new one (it starts in the background). */
  acquire(): Worker;
  /** Returns a worker that finished its job; it no longer keeps the process alive. */
  release(worker: Worker): void;
  /** Stops a worker that cannot be reused (stuck on a file, or the search was cancelled). */
  discard(worker: Worker): void;
  /** Starts workers until `count` are idle; they wait like released ones. */
  prestart(count: number): void;
}

/** Creates an empty pool; workers are created on demand and stop after a while idle. */
export function createGrepWorkerPool(idleMs = GREP_WORKER_IDLE_MS): GrepWorkerPool {
  const idle = new Set<Worker>();
  let timer: NodeJS.Timeout | undefined;
  const stopIdle = () => {
    for (const worker of idle) void worker.terminate();
    idle.clear();
  };
  /** A new worker: it starts in the background. */
  const start = (): Worker => {
    const worker = new Worker(GREP_WORKER_URL, {
      // GREP_WORKER_DATA and GREP_WORKER_ARGUMENT of grep-worker.ts
      workerData: "xzatoma-grep-worker",
      argv: ["--xzatoma-grep-worker"],
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    // An idle worker that fails leaves the pool; a search adds its own listeners.
    worker.on("error", () => idle.delete(worker));
    worker.on("exit", () => idle.delete(worker));
    return worker;
  };
  const pool: GrepWorkerPool = {
    get idle() {
      return idle.size;
    },
    acquire() {
      const reused = idle.values().next().value;
      if (reused) {
        idle.delete(reused);
        reused.ref();
        return reused;
      }
      return start();
    },
    release(worker) {
      worker.unref();
      idle.add(worker);
      clearTimeout(timer);
      timer = setTimeout(stopIdle, idleMs);
      timer.unref();
    },
    discard(worker) {
      idle.delete(worker);
      void worker.terminate();
    },
    prestart(count) {
      // acquire() would take back an idle worker: new ones are started here.
      const started = Array.from({ length: Math.max(0, count - idle.size) }, start);
      for (const worker of started) pool.release(worker);
    },
  };
  return pool;
}
