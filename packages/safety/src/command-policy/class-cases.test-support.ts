/**
 * The harness of the class tests (not part of the package's API): each case is
 * `[input, expected, cwd?]`, checked against the fixture workspace of
 * {@link createTestWorkspace} (`link-to-etc -> /etc`, `.env`, `.git/`, …) plus a directory
 * `sub/` holding a symlink `sub/x -> /`, with `/ws` and `/ws-evil` in the input mapped to
 * the real directories.
 */
import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPathGuard } from "../path-guard.js";
import { createCommandPolicy, type CommandPolicy, type CommandVerdict } from "./index.js";
import { createTestWorkspace, type TestWorkspace } from "./test-workspace.js";

/** Time allowed per test and for the setup: generous, as on a loaded 2-core machine (not a timing assertion). */
const SLOW_MACHINE_MS = 30_000;

/** One case: the command, the exact verdict it must get, and the directory it runs in. */
export type ClassCase = readonly [input: string, expected: CommandVerdict, cwd?: string];

/** The workspace and policy of one test file, valid inside tests. */
export interface Fixture {
  readonly policy: CommandPolicy;
  readonly workspace: TestWorkspace;
}

/** Builds the fixture workspace and a policy for it before the file's tests, removes it after. */
export function useFixture(): Fixture {
  let workspace: TestWorkspace | undefined;
  let policy: CommandPolicy | undefined;
  beforeAll(async () => {
    workspace = await createTestWorkspace();
    await mkdir(path.join(workspace.root, "sub"), { recursive: true });
    await symlink("/", path.join(workspace.root, "sub", "x"));
    // These cases test verdicts, not the parse deadline (command-policy.limits.test.ts does):
    // a loaded CI machine must not turn a block into the deadline's fail-closed confirm.
    policy = await createCommandPolicy({
      pathGuard: createPathGuard({ root: workspace.root }),
      parseTimeoutMs: 5_000,
    });
  }, SLOW_MACHINE_MS);
  afterAll(() => workspace?.remove());
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the fixture is used outside a test");
    return value;
  };
  return {
    get policy() {
      return ready(policy);
    },
    get workspace() {
      return ready(workspace);
    },
  };
}

/** One `describe` per class, one test per case, each asserting the exact verdict. */
export function describeClasses(
  classes: Readonly<Record<string, readonly ClassCase[]>>,
  fixture: Fixture = useFixture(),
): void {
  for (const [name, cases] of Object.entries(classes)) {
    describe(name, () => {
      it.each(
        cases.map(
          ([input, expected, cwd]) =>
            [JSON.stringify(input), cwd ?? ".", input, expected, cwd] as const,
        ),
      )(
        "%s in %s",
        async (_shown, _where, input, expected, cwd) => {
          const { policy, workspace } = fixture;
          const decision = await policy.check(
            workspace.mapInput(input),
            cwd === undefined ? undefined : { cwd: workspace.mapInput(cwd) },
          );
          expect(decision.verdict, decision.reason).toBe(expected);
        },
        SLOW_MACHINE_MS,
      );
    });
  }
}
