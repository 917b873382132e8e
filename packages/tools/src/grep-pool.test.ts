import { describe, expect, it } from "vitest";
import { createGrepWorkerPool } from "./grep-pool.js";

describe("createGrepWorkerPool", () => {
  it("counts the idle workers a call can use without starting any", async () => {
    const pool = createGrepWorkerPool(60_000);
    expect(pool.idle).toBe(0);
    const first = pool.acquire();
    const second = pool.acquire();
    expect(second).not.toBe(first);
    expect(pool.idle).toBe(0);
    pool.release(first);
    expect(pool.idle).toBe(1);
    expect(pool.acquire()).toBe(first); // reused, not started again
    expect(pool.idle).toBe(0);
    pool.discard(first);
    pool.discard(second);
    expect(pool.idle).toBe(0);
  });

  it("starts workers ahead of a call, up to the count asked for", () => {
    const pool = createGrepWorkerPool(60_000);
    pool.prestart(1);
    expect(pool.idle).toBe(1);
    pool.prestart(1); // one is idle already: none started
    expect(pool.idle).toBe(1);
    const started = pool.acquire();
    expect(pool.idle).toBe(0);
    pool.prestart(2);
    expect(pool.idle).toBe(2);
    const [other, last] = [pool.acquire(), pool.acquire()];
    expect(other).not.toBe(started);
    expect(last).not.toBe(other);
    for (const worker of [started, other, last]) pool.discard(worker);
  });
});
