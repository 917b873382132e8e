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

describe("the user's denylist", () => {
  it("blocks an entry's program with its words in order, naming the entry and the key", async () => {
    const decision = await policy.check("git push origin main");
    expect(decision.verdict).toBe("block");
    expect(decision.reason).toContain("`git push`");
    expect(decision.reason).toContain("agent.terminal.custom_denylist");
    expect((await policy.check("git -C . push")).verdict).toBe("block");
    expect((await policy.check("npm publish --dry-run")).verdict).toBe("block");
  });

  it("blocks an allowlisted program when the user denies it", async () => {
    expect((await policy.check("wc -l README.md")).verdict).toBe("block");
    expect((await policy.check("ls src")).verdict).toBe("allow");
  });

  it("matches programs, not text: names and arguments that merely contain an entry pass", async () => {
    expect((await policy.check("echo 'git push'")).verdict).toBe("allow");
    expect((await policy.check("git status")).verdict).not.toBe("block");
    expect((await policy.check("cat wcx.txt")).verdict).not.toBe("block");
  });

  it("sees through paths, wrappers, nested shells, substitutions and computed names", async () => {
    for (const command of [
      "/usr/bin/git push",
      "env GIT_DIR=x git push",
      "sh -c 'git push'",
      "echo $(git push)",
      "ls; git push",
      "true && nice git push",
      "/???/bin/w?",
      // bash's bracket classes in a computed name: `[[:lower:]]c` is `wc`.
      "/usr/bin/[[:lower:]]c -l x",
      "/usr/bin/[!a]c -l x",
      "/usr/bin/\\w[c] -l x",
    ]) {
      const decision = await policy.check(command);
      expect({ command, verdict: decision.verdict }).toEqual({ command, verdict: "block" });
    }
  });
});
