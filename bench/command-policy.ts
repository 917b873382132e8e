// Command policy throughput: every case of the shared command corpus
// (packages/safety/src/__fixtures__/command-cases.json) classified against the fixture
// workspace the cases describe, ROUNDS times after one warm-up round, through one policy.
// Reports decisions per second and p50 / p99 / max latency per decision. Target: p99 < 5 ms.
//
//   node bench/command-policy.ts
//
// Runs the TypeScript sources directly: the `.js` import suffixes of the package map to
// the `.ts` files, and the few constructs Node's type stripping does not take (parameter
// properties) are transformed by the same Node API.
import { readFileSync } from "node:fs";
import { registerHooks, stripTypeScriptTypes } from "node:module";
import { fileURLToPath } from "node:url";

const ROUNDS = 20;
// stripTypeScriptTypes warns that it is experimental on every run; the numbers matter here.
process.removeAllListeners("warning");
const TARGET_P99_MS = 5;

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (!specifier.startsWith(".") || !specifier.endsWith(".js")) throw error;
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
  load(url, context, nextLoad) {
    if (!url.startsWith("file:") || !url.endsWith(".ts") || url.includes("/node_modules/")) {
      return nextLoad(url, context);
    }
    const source = readFileSync(fileURLToPath(url), "utf8");
    return {
      format: "module",
      source: stripTypeScriptTypes(source, { mode: "transform" }),
      shortCircuit: true,
    };
  },
});

interface Decision {
  readonly verdict: "allow" | "confirm" | "block";
}
interface CommandCase {
  readonly id: string;
  readonly input: string;
  readonly expected: string;
}

const { createCommandPolicy } =
  (await import("../packages/safety/src/command-policy/index.ts")) as {
    createCommandPolicy(options: {
      pathGuard: unknown;
    }): Promise<{ check(command: string): Promise<Decision> }>;
  };
const { createPathGuard } = (await import("../packages/safety/src/path-guard.ts")) as {
  createPathGuard(options: { root: string }): unknown;
};
const { createTestWorkspace } =
  (await import("../packages/safety/src/command-policy/test-workspace.ts")) as {
    createTestWorkspace(): Promise<{
      root: string;
      mapInput(input: string): string;
      remove(): Promise<void>;
    }>;
  };

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

const corpusUrl = new URL(
  "../packages/safety/src/__fixtures__/command-cases.json",
  import.meta.url,
);
const cases = JSON.parse(readFileSync(corpusUrl, "utf8")) as CommandCase[];
const workspace = await createTestWorkspace();
try {
  const created = performance.now();
  const policy = await createCommandPolicy({
    pathGuard: createPathGuard({ root: workspace.root }),
  });
  const setupMs = performance.now() - created;
  const inputs = cases.map((entry) => workspace.mapInput(entry.input));

  let mismatches = 0;
  for (const [index, input] of inputs.entries()) {
    const decision = await policy.check(input);
    if (decision.verdict !== cases[index]?.expected) mismatches += 1;
  }

  const latencies: number[] = [];
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    for (const input of inputs) {
      const before = performance.now();
      await policy.check(input);
      latencies.push(performance.now() - before);
    }
  }
  const totalMs = performance.now() - started;
  const sorted = [...latencies].sort((a, b) => a - b);
  const p99 = percentile(sorted, 0.99);
  console.log(
    `command policy: ${String(cases.length)} cases x ${String(ROUNDS)} rounds = ${String(latencies.length)} decisions`,
  );
  console.log(`  policy created (parser and grammar loaded) in ${setupMs.toFixed(1)} ms`);
  console.log(`  throughput  ${((latencies.length / totalMs) * 1000).toFixed(0)} decisions/s`);
  console.log(
    `  latency     p50 ${percentile(sorted, 0.5).toFixed(3)} ms, p99 ${p99.toFixed(3)} ms, max ${(sorted.at(-1) ?? 0).toFixed(3)} ms`,
  );
  console.log(
    `  target      p99 < ${String(TARGET_P99_MS)} ms: ${p99 < TARGET_P99_MS ? "met" : "MISSED"}`,
  );
  console.log(
    `  verdicts    ${String(cases.length - mismatches)}/${String(cases.length)} as expected`,
  );
} finally {
  await workspace.remove();
}
