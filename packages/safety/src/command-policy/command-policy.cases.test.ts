import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPathGuard } from "../path-guard.js";
import { createCommandPolicy, type CommandPolicy, type CommandVerdict } from "./index.js";
import { createTestWorkspace, type TestWorkspace } from "./test-workspace.js";

interface CommandCase {
  readonly id: string;
  readonly category: string;
  readonly input: string;
  readonly expected: CommandVerdict;
  readonly reason: string;
}

const cases = JSON.parse(
  readFileSync(new URL("../__fixtures__/command-cases.json", import.meta.url), "utf8"),
) as CommandCase[];

/**
 * Cases whose verdict differs from the fixture, each with why. Only non-block cases may
 * appear here, and only as stricter verdicts; a block case must always come out block.
 */
const DOCUMENTED_DIFFERENCES: Readonly<
  Record<string, { readonly actual: CommandVerdict; readonly why: string }>
> = {};

let workspace: TestWorkspace;
let policy: CommandPolicy;
const tally = new Map<string, { expected: number; total: number }>();

beforeAll(async () => {
  workspace = await createTestWorkspace();
  // These cases test verdicts, not the parse deadline (command-policy.limits.test.ts does):
  // a loaded CI machine must not turn a block into the deadline's fail-closed confirm.
  policy = await createCommandPolicy({
    pathGuard: createPathGuard({ root: workspace.root }),
    parseTimeoutMs: 5_000,
  });
});

afterAll(async () => {
  const lines = [...tally].map(
    ([category, { expected, total }]) =>
      `  ${category.padEnd(18)} ${String(expected)}/${String(total)}`,
  );
  console.log(`command cases as expected, per category:\n${lines.join("\n")}`);
  await workspace.remove();
});

describe("command cases of /work/shared/security", () => {
  it.each(cases.map((entry) => [entry.id, entry] as const))("%s", async (_id, entry) => {
    const decision = await policy.check(workspace.mapInput(entry.input));
    const counts = tally.get(entry.category) ?? { expected: 0, total: 0 };
    counts.total += 1;
    if (decision.verdict === entry.expected) counts.expected += 1;
    tally.set(entry.category, counts);
    // The hard requirement: a block case never comes out allow.
    if (entry.expected === "block") expect(decision.verdict, decision.reason).not.toBe("allow");
    const documented = DOCUMENTED_DIFFERENCES[entry.id];
    expect(decision.verdict, `${entry.reason} — got: ${decision.reason}`).toBe(
      documented?.actual ?? entry.expected,
    );
    expect(decision.reason.length).toBeGreaterThan(0);
  });
});
