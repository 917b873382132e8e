import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPathGuard } from "../path-guard.js";
import { createCommandPolicy, type CommandPolicy, type CommandVerdict } from "./index.js";
import { createTestWorkspace, type TestWorkspace } from "./test-workspace.js";

/**
 * The classes of holes an adversarial review found, each with the example it gave and
 * variants built the same ways (quoting, wrappers, nested shells, other spellings). Every
 * case asserts the exact verdict. The workspace has `sub/x -> /` and `link-to-etc -> /etc`.
 */
type Case = readonly [input: string, expected: CommandVerdict, cwd?: string];

const CLASSES: Readonly<Record<string, readonly Case[]>> = {
  "working directory": [
    ["cat x/etc/passwd", "block", "sub"],
    ["cat x/etc/passwd", "allow"],
    ["cat ./x/etc/passwd", "block", "sub"],
    ["head -n1 x/etc/hostname", "block", "sub"],
    ["ls x", "block", "sub"],
    ["ls", "allow", "sub"],
    ["ls", "allow", "src"],
    ["cat index.ts", "allow", "src"],
    ["cat ../README.md", "allow", "src"],
    ["cat index.ts", "allow", "/ws/src"],
    ["cat ../../ws-evil/secret.txt", "block", "src"],
    ["cat ../../etc/passwd", "block", "src"],
    ["ls ..", "block", "."],
    ["ls", "confirm", "sub/x"],
    ["ls", "confirm", "sub/x/etc"],
    ["ls", "confirm", "/etc"],
    ["cat passwd", "block", "/etc"],
    ["ls", "confirm", "../ws-evil"],
    ["cat secret.txt", "block", "../ws-evil"],
    ["ls", "confirm", "no-such-directory"],
    ["ls", "confirm", "README.md"],
    ["ls", "confirm", "link-to-etc"],
    ["cat passwd", "block", "link-to-etc"],
    ["ls", "confirm", "sub/x/.."],
    ["rm -f victim.txt", "block", "sub/x/tmp"],
    ["bash -c 'cat x/etc/passwd'", "block", "sub"],
    ["cd sub && cat x/etc/passwd", "block"],
    ["cd sub; bash -c 'cat x/etc/shadow'", "block"],
    ["cd /etc && sh -c 'cat passwd'", "block"],
    ["cat sub/x/../etc/passwd", "block"],
    ["cat link-to-etc/../README.md", "block"],
    ["cat x/../README.md", "block", "sub"],
    ["rm -rf x/..", "block", "sub"],
    ['cd "$DIR" && rm -rf *', "block"],
    ["cd - && rm -f notes.txt", "block"],
    ["echo x > out.txt", "block", "/etc"],
  ],
  "tilde and PWD": [
    ["rm -f ~+/../victim.txt", "block"],
    ["rm -f ../victim.txt", "block"],
    ["rm -f ~+/../victim.txt", "block", "src/.."],
    ["rm -f ~+/../../victim.txt", "block", "src"],
    ["rm -f ~+/build.log", "confirm", "src"],
    ["cat ~+/../ws-evil/secret.txt", "block"],
    ["cat ~+/README.md", "confirm"],
    ["cat ~-/secret.txt", "confirm"],
    ["rm -f ~-/victim.txt", "block"],
    ["rm -rf ~-", "block"],
    ["cd src && rm -f ~-/../victim.txt", "block"],
    ["cd src && cat ~-/README.md", "confirm"],
    ["cat ~root/.bashrc", "block"],
    ["rm -rf ~root", "block"],
    ["cp README.md ~nobody/x", "block"],
    ["cat ~0/../ws-evil/secret.txt", "block"],
    ["cat ~+0/../ws-evil/secret.txt", "block"],
    ["rm -f $PWD/../victim.txt", "block"],
    ["rm -f ${PWD}/../victim.txt", "block"],
    ['rm -f "${PWD}/../victim.txt"', "block"],
    ["rm -f ${PWD%/*}/victim.txt", "block"],
    ["rm -rf ${PWD%/*}", "block"],
    ["rm -rf ${PWD%%/ws*}/ws-evil", "block"],
    ["cat ${PWD/ws/ws-evil}/secret.txt", "block"],
    ["rm -rf ${HOME%/*}/", "block"],
    ["cat ${HOME%/*}/x", "block"],
    ["rm -rf ${HOME:0:1}", "block"],
    ['rm -rf "${PWD::1}"', "block"],
    ["rm -f $OLDPWD/victim.txt", "block"],
    ["rm -rf $OLDPWD", "block"],
    ["cat $OLDPWD/notes.txt", "confirm"],
    ["env rm -f ~+/../victim.txt", "block"],
    ["timeout 5 rm -f ~+/../victim.txt", "block"],
    ["bash -c 'rm -f ~+/../victim.txt'", "block"],
    ["sudo rm -f ~-/x", "block"],
    ["dd if=README.md of=~+/../victim.txt", "block"],
    ["X=~+/..; rm -rf $X/ws-evil", "block"],
    ["export T=~-; rm -rf $T", "block"],
    ["echo ~+", "confirm"],
    ["ls ~+/src", "confirm"],
  ],
};

let workspace: TestWorkspace;
let policy: CommandPolicy;

beforeAll(async () => {
  workspace = await createTestWorkspace();
  policy = await createCommandPolicy({ pathGuard: createPathGuard({ root: workspace.root }) });
});

afterAll(() => workspace.remove());

for (const [name, cases] of Object.entries(CLASSES)) {
  describe(name, () => {
    it.each(
      cases.map(
        ([input, expected, cwd]) =>
          [JSON.stringify(input), cwd ?? ".", input, expected, cwd] as const,
      ),
    )("%s in %s", async (_shown, _where, input, expected, cwd) => {
      const decision = await policy.check(
        workspace.mapInput(input),
        cwd === undefined ? undefined : { cwd: workspace.mapInput(cwd) },
      );
      expect(decision.verdict, decision.reason).toBe(expected);
    });
  });
}

describe("the cwd option", () => {
  it("defaults to the workspace root and accepts an absolute path inside it", async () => {
    expect((await policy.check("cat README.md")).verdict).toBe("allow");
    expect((await policy.check("cat README.md", {})).verdict).toBe("allow");
    expect((await policy.check("cat README.md", { cwd: workspace.root })).verdict).toBe("allow");
    expect((await policy.check("cat index.ts", { cwd: `${workspace.root}/src` })).verdict).toBe(
      "allow",
    );
  });

  it("names the working directory when it disqualifies the command", async () => {
    const outside = await policy.check("ls", { cwd: "sub/x" });
    expect(outside.verdict).toBe("confirm");
    expect(outside.reason).toContain("working directory");
    const invalid = await policy.check("ls", { cwd: "bad\u0000dir" });
    expect(invalid.verdict).toBe("confirm");
    expect((await policy.check("ls", { cwd: "" })).verdict).toBe("confirm");
  });

  it("still blocks what blocks anywhere when the directory is unusable", async () => {
    expect((await policy.check("rm -rf /", { cwd: "no-such-directory" })).verdict).toBe("block");
    expect((await policy.check("rm -rf /", { cwd: "sub/x" })).verdict).toBe("block");
  });
});
