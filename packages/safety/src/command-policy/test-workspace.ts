import { link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** A throwaway workspace with the fixtures the command cases describe. */
export interface TestWorkspace {
  /** The temp directory holding the workspace and its siblings. */
  readonly base: string;
  /** The workspace root, `<base>/ws`. */
  readonly root: string;
  /** The sibling that shares the root's prefix, `<base>/ws-evil`. */
  readonly evil: string;
  /** Replaces the absolute fixture paths of a case (`/ws-evil/…`, `/ws/…`) with the real ones. */
  mapInput(input: string): string;
  remove(): Promise<void>;
}

/**
 * Builds `<tmp>/ws` with `README.md`, `package.json`, `src/index.ts`, `docs/`, `app.log`,
 * `list.txt`, `.env`, `key.pub`, `p.txt`, `a.tar`, `race.txt`, `.git/hooks`, a symlink
 * `link-to-etc -> /etc` and a hard link `hl.txt` to a file outside, plus a sibling
 * `<tmp>/ws-evil/secret.txt`. For tests and the benchmark.
 */
export async function createTestWorkspace(): Promise<TestWorkspace> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-command-policy-")));
  const root = path.join(base, "ws");
  const evil = path.join(base, "ws-evil");
  for (const dir of ["src", "docs", ".git/hooks", ".vscode"])
    await mkdir(path.join(root, dir), { recursive: true });
  await mkdir(evil);
  const files: Record<string, string> = {
    "README.md": "# fixture\n",
    "package.json": "{}\n",
    "src/index.ts": "export {};\n",
    "docs/guide.md": "rm -rf / is dangerous\n",
    "app.log": "started\n",
    "list.txt": "build\n",
    ".env": "TOKEN=secret\n",
    "key.pub": "ssh-ed25519 AAAA fixture\n",
    "p.txt": "ZWNobyBoaQo=\n",
    "a.tar": "",
    "race.txt": "race\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    ".git/config": "[core]\n",
  };
  for (const [name, content] of Object.entries(files))
    await writeFile(path.join(root, name), content);
  await writeFile(path.join(evil, "secret.txt"), "secret\n");
  await writeFile(path.join(base, "outside.txt"), "outside\n");
  await symlink("/etc", path.join(root, "link-to-etc"));
  await link(path.join(base, "outside.txt"), path.join(root, "hl.txt"));
  return {
    base,
    root,
    evil,
    mapInput: (input) =>
      input
        .replace(/(?<=^|[\s='"])\/ws-evil(?=\/|\s|$)/g, evil)
        .replace(/(?<=^|[\s='"])\/ws(?=\/|\s|$)/g, root),
    remove: () => rm(base, { recursive: true, force: true }),
  };
}
