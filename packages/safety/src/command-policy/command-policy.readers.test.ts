import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPathGuard } from "../path-guard.js";
import { READER_NAMES } from "./allowlist.js";
import { createCommandPolicy, DEFAULT_ALLOWLIST, type CommandPolicy } from "./index.js";
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

/**
 * Each reader: forms that run directly, and forms that must not (an option that writes,
 * runs a program, follows out of the workspace, reads names the check does not see, or
 * is unknown).
 */
const READERS: Readonly<Record<string, { direct: string[]; not: string[] }>> = {
  jq: {
    direct: [
      "jq . package.json",
      "jq -r '.name' package.json",
      "jq -rc --arg x 1 '.[$x]' package.json",
      "jq -n --slurpfile p package.json '$p'",
      "jq -n --args '$ARGS' a b",
    ],
    not: [
      "jq -f prog.jq package.json",
      "jq 'import \"m\" as m; .' package.json",
      "jq --unknown . package.json",
      "jq . .env",
      "jq -n --rawfile s .env '$s'",
    ],
  },
  sed: {
    direct: [
      "sed -n '1,20p' README.md",
      "sed -n 5p src/index.ts",
      "sed -n '/^#/,/^$/p' README.md",
      "sed -n -e 's/a/b/gp' -e '$=' README.md",
      "sed -n '2~3p;10q' README.md",
    ],
    not: [
      "sed 's/a/b/' README.md",
      "sed -n '1w out.txt' README.md",
      "sed -n 's/a/b/w out.txt' README.md",
      "sed -n 's/a/id/e' README.md",
      "sed -n '1r /etc/passwd' README.md",
      "sed -n 'R list.txt' README.md",
      "sed -n -i 1p README.md",
      "sed -n -f script.sed README.md",
      "sed -n 1p .env",
    ],
  },
  diff: {
    direct: [
      "diff README.md docs/guide.md",
      "diff -u -r src docs",
      "diff --color=always -q src src",
    ],
    not: [
      "diff -l README.md docs/guide.md",
      "diff README.md .env",
      "diff --to-file=.env README.md",
    ],
  },
  cmp: { direct: ["cmp README.md README.md"], not: ["cmp README.md .env"] },
  comm: { direct: ["comm -12 list.txt list.txt"], not: ["comm list.txt .env"] },
  stat: { direct: ["stat README.md", "stat -c %s src"], not: ["stat /home", "stat --x src"] },
  du: {
    direct: ["du -sh src", "du -h --max-depth=1"],
    not: ["du -L src", "du --files0-from=list.txt"],
  },
  df: { direct: ["df -h", "df -h ."], not: ["df --x"] },
  rg: {
    direct: ["rg -n export src", "rg --files src", "rg -e TODO -g '*.ts' src"],
    not: [
      "rg --pre cat x src",
      "rg --pre=cat x src",
      "rg --pre-glob '*' x src",
      "rg -z x src",
      "rg --search-zip x src",
      "rg -L x src",
      "rg --hostname-bin id x src",
      "rg TODO",
    ],
  },
  tree: { direct: ["tree", "tree -L 2 src"], not: ["tree -o out.txt", "tree -l src", "tree -R"] },
  sha256sum: { direct: ["sha256sum README.md"], not: ["sha256sum -c sums.txt", "sha256sum .env"] },
  md5sum: { direct: ["md5sum src/index.ts"], not: ["md5sum --check sums.txt"] },
  cksum: { direct: ["cksum -a sha256 README.md"], not: ["cksum --check sums.txt"] },
  sort: {
    direct: ["sort -k5 -n list.txt", "sort -u -t, -k1,1 list.txt"],
    not: ["sort -o out.txt list.txt", "sort --compress-program=gzip list.txt", "sort -T /tmp x"],
  },
  uniq: { direct: ["uniq -c list.txt"], not: ["uniq list.txt out.txt"] },
  cut: { direct: ["cut -d, -f1 list.txt"], not: ["cut -f1 .env"] },
  tr: { direct: ["tr a-z A-Z < README.md"], not: ["tr a-z A-Z < .env"] },
  nl: { direct: ["nl -ba README.md"], not: ["nl --x README.md"] },
  rev: { direct: ["rev list.txt"], not: ["rev .env"] },
  tac: { direct: ["tac app.log"], not: ["tac -x app.log"] },
  column: { direct: ["column -t -s, list.txt"], not: ["column .env"] },
  file: {
    direct: ["file README.md", "file -b --mime-type src/index.ts"],
    not: ["file -z a.tar", "file -C -m magic", "file -f list.txt", "file -p README.md"],
  },
  basename: { direct: ["basename src/index.ts .ts"], not: ["basename --x a"] },
  dirname: { direct: ["dirname src/index.ts"], not: ["dirname -x a"] },
  realpath: { direct: ["realpath src/index.ts"], not: ["realpath /home"] },
  date: {
    direct: ["date", "date +%s", "date -u -d yesterday +%F"],
    not: ["date -s 2020-01-01", "date --set=now", "date 010100002030"],
  },
  true: { direct: ["true", "false"], not: [] },
  test: { direct: ["test -f package.json"], not: ["test -v 'a[$(id)]'", "test -R x"] },
  printenv: { direct: ["printenv PATH", "env"], not: ["env ls"] },
  uname: { direct: ["uname -a"], not: ["uname x"] },
  whoami: { direct: ["whoami", "id", "id -un"], not: ["whoami x"] },
  hostname: { direct: ["hostname", "hostname -f"], not: ["hostname evil", "hostname -F /etc/x"] },
  od: { direct: ["od -c README.md"], not: ["od -w .env", "od --width .env"] },
  grep: { direct: ["grep -rn TODO src"], not: ["grep --fil=list.txt x README.md"] },
};

describe("read-only programs with an argument spec", () => {
  it.each(Object.entries(READERS))(
    "%s runs directly only in its read-only forms",
    async (_name, forms) => {
      for (const command of forms.direct)
        expect((await policy.check(command)).outcome, command).toBe("direct");
      for (const command of forms.not)
        expect((await policy.check(command)).outcome, command).not.toBe("direct");
    },
  );

  it("has a spec for every program of the default allowlist", () => {
    expect([...DEFAULT_ALLOWLIST].sort()).toEqual([...READER_NAMES, "env"].sort());
  });
});
