import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createBashParser, parseClock } from "./parse-command.js";

describe("the parse deadline", () => {
  it("follows the clock it is given: a clock that runs past the deadline fails closed", async () => {
    let now = 0;
    const racing = await createBashParser(() => (now += 1_000));
    expect(racing.parse("ls -la src", 50)).toEqual({ ok: false, failure: "timeout" });
    const frozen = await createBashParser(() => 0);
    expect(frozen.parse("ls -la src", 1)).toMatchObject({ ok: true });
    // The deadline is reached, not passed: a timeout of 0 never parses, even on a clock
    // that has not moved since the parse started.
    expect(frozen.parse("ls -la src", 0)).toEqual({ ok: false, failure: "timeout" });
  });

  it("counts the CPU time of this thread, so time spent waiting or preempted does not count", async () => {
    const before = parseClock();
    await sleep(300);
    const waited = parseClock() - before;
    // Sleeping uses next to no CPU; wall-clock time would have advanced by 300 ms.
    expect(waited).toBeLessThan(150);
    const start = parseClock();
    let spin = 0;
    while (parseClock() - start < 5) spin += 1;
    expect(spin).toBeGreaterThan(0);
  });
});
