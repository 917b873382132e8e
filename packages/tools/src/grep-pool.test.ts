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
});
