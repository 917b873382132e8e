/**
 * The corpora of the command policy's property tests and of its benchmark (not part of the
 * package's API): the shared adversarial cases, the project's own attack corpus, and the
 * everyday commands that must run without asking.
 */
import { readFileSync } from "node:fs";

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
