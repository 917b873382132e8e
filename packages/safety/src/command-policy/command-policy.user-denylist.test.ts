import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPathGuard } from "../path-guard.js";
import { createCommandPolicy, type CommandPolicy } from "./index.js";
import { createTestWorkspace, type TestWorkspace } from "./test-workspace.js";

let workspace: TestWorkspace;
let policy: CommandPolicy;

beforeAll(async () => {
  workspace = await createTestWorkspace();
  policy = await createCommandPolicy({
    pathGuard: createPathGuard({ root: workspace.root }),
    allowlist: ["ls", "cat", "echo", "wc"],
    denylist: ["git push", "wc", "  ", "/usr/bin/npm publish"],
  });
}, 30_000);

afterAll(() => workspace.remove());

describe("the user's deny list", () => {
  it("forbids an entry's program with its words in order, naming the entry and the key", async () => {
    const decision = await policy.check("git push origin main");
    expect(decision.outcome).toBe("forbidden");
    expect(decision.reason).toContain("`git push`");
    expect(decision.reason).toContain("agent.terminal.custom_denylist");
    expect((await policy.check("git -C . push")).outcome).toBe("forbidden");
    expect((await policy.check("npm publish --dry-run")).outcome).toBe("forbidden");
  });

  it("forbids an allowlisted program when the user denies it", async () => {
    expect((await policy.check("wc -l README.md")).outcome).toBe("forbidden");
    expect((await policy.check("ls src")).outcome).toBe("direct");
  });

  it("matches programs, not text: names and arguments that merely contain an entry pass", async () => {
    expect((await policy.check("echo 'git push'")).outcome).toBe("direct");
    expect((await policy.check("git status")).outcome).toBe("direct");
    expect((await policy.check("cat wcx.txt")).outcome).not.toBe("forbidden");
  });

  it("sees through paths, wrappers, nested shells, substitutions and lists", async () => {
    for (const command of [
      "/usr/bin/git push",
      "env GIT_DIR=x git push",
      "sh -c 'git push'",
      "echo $(git push)",
      "ls; git push",
      "true && nice git push",
    ]) {
      const decision = await policy.check(command);
      expect({ command, outcome: decision.outcome }).toEqual({ command, outcome: "forbidden" });
    }
  });
});
