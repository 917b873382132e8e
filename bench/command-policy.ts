// Command policy throughput and outcomes over three corpora: the shared command cases
// (packages/safety/src/__fixtures__/command-cases.json), the project's attack corpus
// (attack-corpus.json) and the everyday commands (benign-commands.txt), classified against
// the fixture workspace the cases describe, ROUNDS times after one warm-up round, through one
// policy. Reports, per corpus, decisions per second and p50 / p99 / max latency per decision
// (target: p99 < 5 ms), the outcomes, the over-strict share of the everyday commands
// (escalate or forbidden; target < 5%), attacks that came out direct (must be 0; the few
// read-only cases of corpus.test-support.ts's NOW_DIRECT are not attacks), and the
// lines of the command policy (target < 3,000).
//
//   node bench/command-policy.ts
//
// Runs the TypeScript sources directly: the `.js` import suffixes of the package map to
// the `.ts` files, and the few constructs Node's type stripping does not take (parameter
// properties) are transformed by the same Node API.
import { readdirSync, readFileSync } from "node:fs";
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
  readonly outcome: "direct" | "sandbox" | "escalate" | "forbidden";
}
interface Entry {
  readonly input: string;
  readonly expected: string;
  readonly cwd?: string;
}
type Outcome = Decision["outcome"];

const { createCommandPolicy } =
  (await import("../packages/safety/src/command-policy/index.ts")) as {
    createCommandPolicy(options: {
      pathGuard: unknown;
    }): Promise<{ check(command: string, options?: { cwd?: string }): Promise<Decision> }>;
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
const corpora = (await import("../packages/safety/src/command-policy/corpus.test-support.ts")) as {
  NOW_DIRECT: Readonly<Record<string, string>>;
  addCorpusFixtures(root: string): Promise<void>;
  sharedCases(): Entry[];
  projectCases(): Entry[];
  benignCommands(): string[];
};

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

/** Lines of the command policy, counted as the issue counts them (tests and fixtures aside). */
function policyLines(): number {
  const directory = fileURLToPath(
    new URL("../packages/safety/src/command-policy/", import.meta.url),
  );
  return readdirSync(directory)
    .filter(
      (name) =>
        name.endsWith(".ts") &&
        !name.endsWith(".test.ts") &&
        !name.includes("test-support") &&
        name !== "test-workspace.ts",
    )
    .reduce(
      (sum, name) => sum + readFileSync(`${directory}${name}`, "utf8").split("\n").length - 1,
      0,
    );
}

const workspace = await createTestWorkspace();
await corpora.addCorpusFixtures(workspace.root);
try {
  const created = performance.now();
  const policy = await createCommandPolicy({
    pathGuard: createPathGuard({ root: workspace.root }),
  });
  console.log(
    `command policy created (parser and grammar loaded) in ${(performance.now() - created).toFixed(1)} ms`,
  );
  const sets: { name: string; entries: Entry[] }[] = [
    { name: "shared cases", entries: corpora.sharedCases() },
    { name: "attack corpus", entries: corpora.projectCases() },
    {
      name: "everyday commands",
      entries: corpora.benignCommands().map((input) => ({ input, expected: "allow" })),
    },
  ];
  for (const { name, entries } of sets) {
    const inputs = entries.map((entry) => ({
      command: workspace.mapInput(entry.input),
      ...(entry.cwd === undefined ? {} : { options: { cwd: workspace.mapInput(entry.cwd) } }),
    }));
    const counts: Record<Outcome, number> = { direct: 0, sandbox: 0, escalate: 0, forbidden: 0 };
    let attacksDirect = 0;
    for (const [index, input] of inputs.entries()) {
      const { outcome } = await policy.check(input.command, input.options);
      counts[outcome] += 1;
      const entry = entries[index];
      const attack =
        entry?.expected !== "allow" && corpora.NOW_DIRECT[entry?.input ?? ""] === undefined;
      if (attack && outcome === "direct") {
        attacksDirect += 1;
        if (process.env["BENCH_SHOW"] === "1") console.log(`    direct: ${input.command}`);
      }
    }
    const latencies: number[] = [];
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      for (const input of inputs) {
        const before = performance.now();
        await policy.check(input.command, input.options);
        latencies.push(performance.now() - before);
      }
    }
    const totalMs = performance.now() - started;
    const sorted = [...latencies].sort((a, b) => a - b);
    const p99 = percentile(sorted, 0.99);
    const share = (count: number) => `${((count / entries.length) * 100).toFixed(1)}%`;
    console.log(
      `${name}: ${String(entries.length)} x ${String(ROUNDS)} rounds = ${String(latencies.length)} decisions`,
    );
    console.log(`  throughput  ${((latencies.length / totalMs) * 1000).toFixed(0)} decisions/s`);
    console.log(
      `  latency     p50 ${percentile(sorted, 0.5).toFixed(3)} ms, p99 ${p99.toFixed(3)} ms, max ${(sorted.at(-1) ?? 0).toFixed(3)} ms (p99 < ${String(TARGET_P99_MS)} ms: ${p99 < TARGET_P99_MS ? "met" : "MISSED"})`,
    );
    console.log(
      `  outcomes    direct ${share(counts.direct)}, sandbox ${share(counts.sandbox)}, escalate ${share(counts.escalate)}, forbidden ${share(counts.forbidden)}`,
    );
    if (name === "everyday commands") {
      const strict = (counts.escalate + counts.forbidden) / entries.length;
      console.log(
        `  over-strict ${(strict * 100).toFixed(1)}% escalate or forbidden (< 5%: ${strict < 0.05 ? "met" : "MISSED"})`,
      );
    } else console.log(`  attacks that run directly: ${String(attacksDirect)} (must be 0)`);
  }
  const lines = policyLines();
  console.log(
    `command policy: ${String(lines)} lines (< 3,000: ${lines < 3000 ? "met" : "MISSED"})`,
  );
} finally {
  await workspace.remove();
}
