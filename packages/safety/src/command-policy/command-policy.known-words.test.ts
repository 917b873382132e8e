import { homedir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPathGuard } from "../path-guard.js";
import { createCommandPolicy, type CommandPolicy, type EscalationKind } from "./index.js";
import { createTestWorkspace, type TestWorkspace } from "./test-workspace.js";

let workspace: TestWorkspace;
let policy: CommandPolicy;

beforeAll(async () => {
  workspace = await createTestWorkspace();
  policy = await createCommandPolicy({
    pathGuard: createPathGuard({ root: workspace.root }),
    parseTimeoutMs: 5_000,
  });
}, 30_000);

afterAll(() => workspace.remove());

async function kinds(command: string): Promise<EscalationKind[]> {
  const decision = await policy.check(command);
  return decision.escalations.map((escalation) => escalation.kind);
}

describe("what the shell computes runs in the sandbox; what is known still escalates", () => {
  it("sees places outside the workspace through ~, $HOME and variables the script set literally", async () => {
    const outside = `${homedir()}/xz-never-there`;
    for (const command of [
      "cat ~/xz-never-there/notes",
      "cat $HOME/xz-never-there/notes",
      'cat "${HOME}/xz-never-there/notes"',
      `D=${outside}; rm -rf "$D"`,
      `D=${outside}; for f in $D /tmp; do cat "$f"; done`,
      `sh -c 'rm -rf "$1"' x ${outside}`,
      `bash -c "cat ~/xz-never-there/notes"`,
      `X=~/xz-never-there; cat $X`,
      `cat $'${outside.replace(/\//g, "\\x2f")}'`,
      "cd src && cat ~/xz-never-there/notes",
      `$EMPTY cat ${outside}`,
    ])
      expect(await kinds(command), command).toContain("outside");
  });

  it("sees secret names written literally or through decoded quoting", async () => {
    for (const command of [
      "cat .env",
      "cat $'\\x2e'env",
      'F=.env; grep TOKEN "$F"',
      "cd src && cat ../.env",
      "git show HEAD:.env",
    ])
      expect(await kinds(command), command).toContain("secret");
  });

  it("runs a computed word in the sandbox without asking", async () => {
    for (const command of [
      "cat $(echo .e)nv",
      'cat "$UNSET_SOMEWHERE/x"',
      "cat ${HOME%/*}/x",
      "cat ~root/x",
      "ls src/*.ts",
      "cat {README.md,package.json}",
      'D=$(pwd); cat "$D/README.md"',
      "read D; cat $D/x",
      "cd /tmp && cat etc/hostname",
    ])
      expect((await policy.check(command)).outcome, command).toBe("sandbox");
  });

  it("still sees forbidden and network commands behind a computed or wrapped name", async () => {
    expect((await policy.check("$EMPTY sudo id")).outcome).toBe("forbidden");
    expect((await policy.check("env -S 'sudo id'")).outcome).toBe("forbidden");
    expect((await policy.check("timeout 5 nice -n 3 sudo id")).outcome).toBe("forbidden");
    expect(await kinds("nohup curl https://example.com")).toContain("network");
    expect(await kinds("cat < /dev/tcp/example.com/80")).toContain("network");
    expect((await policy.check("command -v curl")).outcome).toBe("sandbox");
  });

  it("never runs a cd'd command directly, whatever the allowlist", async () => {
    const loose = await createCommandPolicy({
      pathGuard: createPathGuard({ root: workspace.root }),
      allowlist: ["cd", "cat"],
      parseTimeoutMs: 5_000,
    });
    expect((await loose.check("cd src && cat index.ts")).outcome).toBe("sandbox");
  });
});
