/**
 * The corpora of the command policy's property tests and of its benchmark (not part of the
 * package's API): the shared adversarial cases, the project's own attack corpus, and the
 * everyday commands that must run without asking.
 */
import { readFileSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";

/** One adversarial case: the command, what it must never do, and the directory it runs in. */
export interface AttackCase {
  readonly id: string;
  readonly input: string;
  /** `allow`: runs without asking; `confirm` and `block`: never directly (see the README). */
  readonly expected: "allow" | "confirm" | "block";
  readonly category: string;
  readonly cwd?: string;
}

function fixture(name: string): string {
  return readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url), "utf8");
}

/** The shared cases (`shared/security/command-cases.json`, copied into `__fixtures__`). */
export function sharedCases(): AttackCase[] {
  return JSON.parse(fixture("command-cases.json")) as AttackCase[];
}

/** The project's own attack corpus: every spelling earlier reviews found, kept as data. */
export function projectCases(): AttackCase[] {
  const raw = JSON.parse(fixture("attack-corpus.json")) as {
    input: string;
    expected: AttackCase["expected"];
    cwd?: string;
    from: string;
  }[];
  return raw.map((entry, index) => ({
    id: `${entry.from}-${String(index)}`,
    input: entry.input,
    expected: entry.expected,
    category: entry.from,
    ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }),
  }));
}

/** Everyday commands across ecosystems (`__fixtures__/benign-commands.txt`). */
export function benignCommands(): string[] {
  return fixture("benign-commands.txt")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"));
}

/**
 * Adds what the attack corpora's cases expect besides the test workspace: `sub/x -> /`,
 * `sub/up -> ..`, `, -> /etc`, and a key in `keys/.ssh/deploy`.
 */
export async function addCorpusFixtures(root: string): Promise<void> {
  await mkdir(path.join(root, "sub"), { recursive: true });
  await symlink("/", path.join(root, "sub", "x"));
  await symlink("..", path.join(root, "sub", "up"));
  await symlink("/etc", path.join(root, ","));
  await mkdir(path.join(root, "keys", ".ssh"), { recursive: true });
  await writeFile(path.join(root, "keys", ".ssh", "deploy"), "-----BEGIN KEY-----\n");
}

/**
 * Cases whose old verdict was stricter than the sandbox-first design wants, each with why.
 * Only read-only commands may appear here: they now run directly.
 */
export const NOW_DIRECT: Readonly<Record<string, string>> = {
  "echo ok; pwd": "a list whose every part is provably read-only runs directly (issue 24)",
  "ls 2>&1": "`2>&1` puts one of the command's own streams onto another; nothing is written",
  "grep fixture README.md | head -n 1": "a pipeline of read-only programs runs directly",
  "grep -f list.txt README.md": "`-f` reads patterns, not file names: nothing else is read",
  "grep --file=list.txt -r src": "`-f` reads patterns, not file names: nothing else is read",
};
