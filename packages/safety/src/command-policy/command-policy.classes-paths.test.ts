import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeClasses, useFixture, type ClassCase } from "./class-cases.test-support.js";

/** The working directory and the directories bash expands (`~+`, `~-`, `$PWD`, `${PWD%/*}`). Every case asserts the exact verdict. */
const CLASSES: Readonly<Record<string, readonly ClassCase[]>> = {
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
    ["cat ~-/secret.txt", "block"],
    ["rm -f ~-/victim.txt", "block"],
    ["rm -rf ~-", "block"],
    ["cd src && rm -f ~-/../victim.txt", "block"],
    ["cd src && cat ~-/README.md", "confirm"],
    ["cd - && cat README.md", "block"],
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
    ["cat $OLDPWD/notes.txt", "block"],
    ["env rm -f ~+/../victim.txt", "block"],
    ["timeout 5 rm -f ~+/../victim.txt", "block"],
    ["bash -c 'rm -f ~+/../victim.txt'", "block"],
    ["sudo rm -f ~-/x", "block"],
    ["dd if=README.md of=~+/../victim.txt", "block"],
    ["X=~+/..; rm -rf $X/ws-evil", "block"],
    ["export T=~-; rm -rf $T", "block"],
    ["echo ~+", "confirm"],
    ["ls ~+/src", "confirm"],
    ['rm -f "$(pwd)/../victim.txt"', "block"],
    ["rm -f `pwd`/../victim.txt", "block"],
    ["pushd src && rm -f ~1/../../victim.txt", "block"],
    ["cd .. && rm -rf ws-evil", "block"],
    ["HOME=/tmp; rm -rf ~/x", "block"],
    ["rm -rf ${PWD/%ws/ws-evil}", "block"],
  ],
};

const fixture = useFixture();

describeClasses(CLASSES, fixture);

describe("the cwd option", () => {
  it("defaults to the workspace root and accepts an absolute path inside it", async () => {
    const { policy, workspace } = fixture;
    expect((await policy.check("cat README.md")).verdict).toBe("allow");
    expect((await policy.check("cat README.md", {})).verdict).toBe("allow");
    expect((await policy.check("cat README.md", { cwd: workspace.root })).verdict).toBe("allow");
    const inSrc = await policy.check("cat index.ts", { cwd: `${workspace.root}/src` });
    expect(inSrc.verdict).toBe("allow");
  });

  it("names the working directory when it disqualifies the command", async () => {
    const { policy } = fixture;
    const outside = await policy.check("ls", { cwd: "sub/x" });
    expect(outside.verdict).toBe("confirm");
    expect(outside.reason).toContain("working directory");
    expect((await policy.check("ls", { cwd: "bad\u0000dir" })).verdict).toBe("confirm");
    expect((await policy.check("ls", { cwd: "" })).verdict).toBe("confirm");
  });

  it("still blocks what blocks anywhere when the directory is unusable", async () => {
    const { policy } = fixture;
    expect((await policy.check("rm -rf /", { cwd: "no-such-directory" })).verdict).toBe("block");
    expect((await policy.check("rm -rf /", { cwd: "sub/x" })).verdict).toBe("block");
  });

  it("shows the path it judged, resolved against the working directory", async () => {
    const { policy } = fixture;
    const decision = await policy.check("cat x/etc/passwd", { cwd: "sub" });
    expect(decision.verdict).toBe("block");
    expect(decision.reason).toContain("x/etc/passwd");
    expect(decision.reason).toContain("outside the workspace");
  });
});

describe("commands that read secrets are marked for a person", () => {
  it("flags a secret-looking or hard-linked path the command reads, and nothing else", async () => {
    const { policy } = fixture;
    expect(await policy.check("cat .env")).toMatchObject({
      verdict: "confirm",
      readsSecrets: true,
    });
    expect(await policy.check("head -n 1 src/../.env")).toMatchObject({ readsSecrets: true });
    expect(await policy.check("cat hl.txt")).toMatchObject({ readsSecrets: true });
    expect((await policy.check("cat README.md")).readsSecrets).toBeUndefined();
    expect((await policy.check("make build")).readsSecrets).toBeUndefined();
  });
});

describe("lists read from a file in the workspace are checked name by name", () => {
  it("blocks when the list names a file outside or a secret, and stays confirm otherwise", async () => {
    const { policy, workspace } = fixture;
    await writeFile(path.join(workspace.root, "outside.lst"), `${workspace.evil}/secret.txt\0`);
    await writeFile(path.join(workspace.root, "secret.lst"), ".env\n");
    await writeFile(path.join(workspace.root, "inside.lst"), "README.md\0");
    expect((await policy.check("wc --files0-from=outside.lst")).verdict).toBe("block");
    expect((await policy.check("find -files0-from outside.lst -exec cat {} +")).verdict).toBe(
      "block",
    );
    expect((await policy.check("tar -cf a.tar -T secret.lst")).verdict).toBe("block");
    expect((await policy.check("wc --files0-from=inside.lst")).verdict).toBe("confirm");
    // A list the same command writes first cannot be known in advance.
    expect(
      (await policy.check("printf 'README.md\\0' > fresh.lst; wc --files0-from=fresh.lst")).verdict,
    ).toBe("confirm");
  });
});
