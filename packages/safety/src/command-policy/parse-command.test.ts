import { spawnSync } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createBashParser, parseClock } from "./parse-command.js";

const here = path.dirname(fileURLToPath(import.meta.url));

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

describe("loading the grammar", () => {
  it("finishes in a process whose WebAssembly is compiled eagerly, instead of exiting mid-load", () => {
    // With --no-wasm-lazy-compilation, web-tree-sitter's asynchronous compile outlasted
    // everything else the event loop waited for: node exited with 0 and printed nothing.
    // The built package (the test target builds it first), as a user's process loads it.
    const packageRoot = path.resolve(here, "..", "..");
    const script = `
      import { createCommandPolicy, createPathGuard } from ${JSON.stringify(path.join(packageRoot, "dist", "index.js"))};
      const policy = await createCommandPolicy({ pathGuard: createPathGuard({ root: process.cwd() }) });
      const decision = await policy.check("ls -la");
      process.stdout.write(JSON.stringify({ outcome: decision.outcome }));
    `;
    const child = spawnSync(
      process.execPath,
      ["--no-wasm-lazy-compilation", "--input-type=module", "--eval", script],
      { cwd: packageRoot, encoding: "utf8" },
    );
    expect(child.stderr).not.toMatch(/unsettled top-level await/);
    expect(child.stdout).toBe('{"outcome":"direct"}');
    expect(child.status).toBe(0);
  });
});
