import { readFileSync } from "node:fs";
import path from "node:path";
import { UNKNOWN_DIRECTORY } from "./working-directory.js";

/** What tilde expansion may consult. */
export interface TildeScope {
  /** The value of `$HOME`. */
  readonly home: string;
  /** A variable's value (`PWD`, `OLDPWD`), or undefined when unset and unknown. */
  lookup(name: string): string | undefined;
  /** The directory stack, `dirs` order: the current directory first. */
  directories(): readonly string[];
}

/** The result of expanding the tilde prefixes of one unquoted word part. */
export interface TildeResult {
  /** The text with every expanded prefix replaced; backslashes are still in it. */
  readonly text: string;
  /** At least one prefix was expanded. */
  readonly expanded: boolean;
  /** A prefix stands for a directory the check cannot know (`~-` with `$OLDPWD` inherited). */
  readonly unknown: boolean;
}

let passwdHomes: ReadonlyMap<string, string> | undefined;

/** Home directories from /etc/passwd, read once; empty where there is no such file. */
function homesFromPasswd(): ReadonlyMap<string, string> {
  if (passwdHomes === undefined) {
    const homes = new Map<string, string>();
    try {
      for (const line of readFileSync("/etc/passwd", "utf8").split("\n")) {
        const fields = line.split(":");
        if (fields.length >= 7 && fields[0] !== undefined && fields[5] !== undefined)
          homes.set(fields[0], fields[5]);
      }
    } catch {
      // No /etc/passwd (macOS keeps users elsewhere): the guess below is used.
    }
    passwdHomes = homes;
  }
  return passwdHomes;
}

/**
 * The home of `user` for `~user`: from /etc/passwd, else a sibling of `$HOME`. Bash leaves
 * `~user` alone for an unknown user; a sibling of the home is the safe guess (outside the
 * workspace), so a command never gets a better verdict from a name the check cannot find.
 */
function homeOf(user: string, home: string): string {
  return homesFromPasswd().get(user) ?? path.posix.join(path.posix.dirname(home), user);
}

/** What the tilde prefix `~prefix` stands for, or null when bash leaves it as it is. */
function prefixValue(
  prefix: string,
  scope: TildeScope,
): { value: string; unknown: boolean } | null {
  const known = (value: string | undefined) =>
    value === undefined ? null : { value, unknown: value.startsWith(UNKNOWN_DIRECTORY) };
  if (prefix === "") return known(scope.home);
  if (prefix === "+") return known(scope.lookup("PWD"));
  if (prefix === "-") return known(scope.lookup("OLDPWD") ?? UNKNOWN_DIRECTORY);
  const stack = /^([+-]?)(\d{1,9})$/.exec(prefix);
  if (stack !== null) {
    const directories = scope.directories();
    const index = Number(stack[2]);
    const entry =
      stack[1] === "-" ? directories[directories.length - 1 - index] : directories[index];
    return known(entry);
  }
  if (/^[A-Za-z0-9._][A-Za-z0-9._-]*\$?$/.test(prefix)) return known(homeOf(prefix, scope.home));
  return null;
}

/**
 * Where tilde prefixes may start in an unquoted part: the start of a word, after the
 * first `=` of an assignment-like word (`of=~/x`, `X=~+`), after each `:` in one
 * (`PATH=~/a:~/b`).
 */
function prefixStarts(raw: string, first: boolean, assignment: boolean): number[] {
  const starts: number[] = [];
  if (first && raw.startsWith("~")) starts.push(0);
  if (!assignment) return starts;
  const equals = first ? /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/.exec(raw) : null;
  if (equals !== null && raw.charAt(equals[0].length) === "~") starts.push(equals[0].length);
  for (let i = raw.indexOf(":~"); i !== -1; i = raw.indexOf(":~", i + 1)) {
    if (raw.charAt(i - 1) !== "\\") starts.push(i + 1);
  }
  return starts;
}

/**
 * Expands the tilde prefixes of one unquoted word part as bash does: `~` (`$HOME`), `~user`,
 * `~+` (`$PWD`), `~-` (`$OLDPWD`), `~N`/`~+N`/`~-N` (the directory stack). A prefix runs
 * to the first unquoted `/` (or `:` in an assignment), so it must end inside this part:
 * `last` says no quoted text follows it in the word. `assignment` is set for an
 * assignment value, or a part of a word that starts like one (`NAME=`).
 */
export function expandTildes(
  raw: string,
  scope: TildeScope,
  options: { first: boolean; last: boolean; assignment: boolean },
): TildeResult {
  const assignmentLike =
    options.assignment || (options.first && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(raw));
  let text = "";
  let at = 0;
  let expanded = false;
  let unknown = false;
  for (const start of prefixStarts(raw, options.first, assignmentLike)) {
    if (start < at) continue;
    const rest = raw.slice(start + 1);
    const end = rest.search(assignmentLike ? /[/:]/ : /\//);
    if (end === -1 && !options.last) continue;
    const prefix = end === -1 ? rest : rest.slice(0, end);
    if (prefix.includes("\\")) continue;
    const value = prefixValue(prefix, scope);
    if (value === null) continue;
    text += raw.slice(at, start) + value.value.replace(/[\\*?[]/g, "\\$&");
    at = start + 1 + prefix.length;
    expanded = true;
    unknown ||= value.unknown;
  }
  return { text: text + raw.slice(at), expanded, unknown };
}
