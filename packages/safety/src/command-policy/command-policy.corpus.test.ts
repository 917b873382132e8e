import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPathGuard } from "../path-guard.js";
import {
  NOW_DIRECT,
  addCorpusFixtures,
  benignCommands,
  projectCases,
  sharedCases,
  type AttackCase,
} from "./corpus.test-support.js";
import { createCommandPolicy, type CommandOutcome, type CommandPolicy } from "./index.js";
import { createTestWorkspace, type TestWorkspace } from "./test-workspace.js";

let workspace: TestWorkspace;
let policy: CommandPolicy;

beforeAll(async () => {
  workspace = await createTestWorkspace();
  await addCorpusFixtures(workspace.root);
  // Outcomes, not the parse deadline (command-policy.limits.test.ts does that): a loaded
  // machine must not turn a case into the deadline's escalation.
  policy = await createCommandPolicy({
    pathGuard: createPathGuard({ root: workspace.root }),
    parseTimeoutMs: 5_000,
  });
}, 30_000);

afterAll(() => workspace.remove());

async function outcomeOf(entry: { input: string; cwd?: string }): Promise<CommandOutcome> {
  const decision = await policy.check(
    workspace.mapInput(entry.input),
    entry.cwd === undefined ? undefined : { cwd: workspace.mapInput(entry.cwd) },
  );
  expect(decision.reason.length).toBeGreaterThan(0);
  return decision.outcome;
}

/**
 * The property every adversarial case must keep: what is not meant to run unasked never runs
 * outside the sandbox without a person (it is never `direct`), and what is meant to run
 * unasked is not asked about (`direct` or `sandbox`).
 */
async function checkAttack(entry: AttackCase): Promise<void> {
  const outcome = await outcomeOf(entry);
  if (entry.expected === "allow" || NOW_DIRECT[entry.input] !== undefined)
    expect(["direct", "sandbox"], entry.input).toContain(outcome);
  else expect(outcome, entry.input).not.toBe("direct");
}

describe("the shared adversarial cases", () => {
  it.each(sharedCases().map((entry) => [entry.id, entry] as const))("%s", async (_id, entry) => {
    await checkAttack(entry);
  });

  it("forbids every privilege escalation of the shared cases", async () => {
    const privilege = sharedCases().filter(
      (entry) =>
        entry.category === "privilege" && /^\s*(?:sudo|su|doas|pkexec)\b/.test(entry.input),
    );
    expect(privilege.length).toBeGreaterThan(3);
    for (const entry of privilege) expect(await outcomeOf(entry), entry.input).toBe("forbidden");
  });
});

describe("the project's attack corpus", () => {
  // One test over the whole corpus: 800 cases as 800 tests would cost more in reporting than in checking.
  it("never runs an attack outside the sandbox without a person", async () => {
    const failures: string[] = [];
    for (const entry of projectCases()) {
      const outcome = await outcomeOf(entry);
      const ok =
        entry.expected === "allow" || NOW_DIRECT[entry.input] !== undefined
          ? outcome === "direct" || outcome === "sandbox"
          : outcome !== "direct";
      if (!ok) failures.push(`${entry.id}: ${JSON.stringify(entry.input)} -> ${outcome}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

describe("everyday commands", () => {
  it("run without asking, directly or in the sandbox", async () => {
    const commands = benignCommands();
    expect(commands.length).toBeGreaterThanOrEqual(150);
    const asked: string[] = [];
    const counts: Record<CommandOutcome, number> = {
      direct: 0,
      sandbox: 0,
      escalate: 0,
      forbidden: 0,
    };
    for (const command of commands) {
      const decision = await policy.check(command);
      counts[decision.outcome] += 1;
      if (decision.outcome === "escalate" || decision.outcome === "forbidden")
        asked.push(`${command} -> ${decision.outcome}: ${decision.reason}`);
    }
    console.log(`everyday commands: ${JSON.stringify(counts)} of ${String(commands.length)}`);
    expect(asked).toEqual([]);
  }, 120_000);
});
