import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPathGuard, type PathGuard } from "../path-guard.js";
import { createCommandPolicy, type CommandPolicy } from "./index.js";
import { createTestWorkspace, type TestWorkspace } from "./test-workspace.js";

let workspace: TestWorkspace;
let guard: PathGuard;
let policy: CommandPolicy;

beforeAll(async () => {
  workspace = await createTestWorkspace();
  guard = createPathGuard({ root: workspace.root });
  policy = await createCommandPolicy({ pathGuard: guard, parseTimeoutMs: 5_000 });
}, 30_000);

afterAll(() => workspace.remove());

const kinds = async (command: string, options?: { cwd?: string }, using = policy) =>
  (await using.check(command, options)).escalations.map((escalation) => escalation.kind);

describe("what a command needs", () => {
  it("sees a fetching git subcommand behind git's own options", async () => {
    for (const command of [
      "git -C . push",
      "git -C . fetch origin",
      "git --git-dir=.git push",
      "git --no-pager pull",
    ])
      expect(await kinds(command), command).toContain("network");
  });
});

describe("fail closed", () => {
  it("escalates a parse past the deadline as unanalysed, and still sees what the partial tree shows", async () => {
    const hurried = await createCommandPolicy({ pathGuard: guard, parseTimeoutMs: 0 });
    const plain = await hurried.check("ls -la src");
    expect(plain.outcome).toBe("escalate");
    expect(plain.reason).toContain("too long to parse");
    expect(await kinds("ls -la src", undefined, hurried)).toEqual(["unanalysed"]);
  });

  it("escalates whatever it could not analyse", async () => {
    for (const command of [
      `ls ${"a".repeat(40_000)}`,
      `echo ${"$(".repeat(300)}ls${")".repeat(300)}`,
      `bash -c "${"bash -c 'ls'; ".repeat(140)}"`,
      'bash -c "bash -c \'bash -c \\"bash -c \\\\\\"bash -c ls\\\\\\"\\"\'"',
      "cat README.md\u0000",
    ]) {
      expect(await kinds(command), command.slice(0, 60)).toContain("unanalysed");
    }
    expect(await kinds("ls", { cwd: "no/such/dir" })).toContain("outside");
    expect((await policy.check("ls -la src")).outcome).toBe("direct");
    expect((await policy.check("npm test")).outcome).toBe("sandbox");
  });

  it("escalates over the segment cap, and still checks every segment", async () => {
    const capped = await createCommandPolicy({ pathGuard: guard, maxSegments: 1 });
    const over = await capped.check("ls && pwd");
    expect(over.outcome).toBe("escalate");
    expect(over.reason).toContain("cap");
    // Too deep a list for the parser is unanalysed; either way a person decides, or no one runs it.
    const many = `${Array.from({ length: 300 }, () => "echo ok").join(" && ")} && sudo id`;
    expect(["escalate", "forbidden"]).toContain((await policy.check(many)).outcome);
    const fewer = `${Array.from({ length: 20 }, () => "echo ok").join(" && ")} && sudo id`;
    expect((await policy.check(fewer)).outcome).toBe("forbidden");
  });

  it("never runs directly what the second lexer reads differently or a terminal may hide", async () => {
    for (const command of [
      "ls\u001b[2K",
      "ls src # comment",
      "ls src/*.ts",
      "ls {src,docs}",
      "/bin/ls src",
      "./ls src",
      "ls\u200b src",
      "echo hi #\rcat .env",
      "coproc ls",
      "ls & pwd",
    ]) {
      expect((await policy.check(command)).outcome, JSON.stringify(command)).not.toBe("direct");
    }
    // A hidden variant is analysed too: what it needs still escalates.
    expect(await kinds("echo hi #\rcat .env")).toContain("secret");
    expect(await kinds("ca\u200bt .env")).toContain("secret");
  });
});
