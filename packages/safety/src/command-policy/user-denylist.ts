import type { Arg, ArgvContext } from "./context.js";
import { normalizeProgram } from "./normalize-program.js";

/**
 * Splits the user's denylist entries into words; the first word is normalised like a
 * program name (`/usr/bin/git` and `git` are the same entry). Empty entries are dropped.
 */
export function parseUserDenylist(entries: readonly string[]): (readonly string[])[] {
  return entries
    .map((entry) => entry.trim().split(/\s+/).filter(Boolean))
    .filter((words) => words.length > 0)
    .map(([first = "", ...rest]) => [normalizeProgram(first).name || first, ...rest]);
}

/** True when `words` appear among `args` in order, not necessarily next to each other. */
function inOrder(words: readonly string[], args: readonly Arg[]): boolean {
  let next = 0;
  for (const arg of args) {
    if (next === words.length) break;
    if (arg.value === words[next]) next += 1;
  }
  return next === words.length;
}

/**
 * Forbids a simple command that matches one of the user's denylist entries. Runs for every
 * argv the policy checks, so wrappers (`env git push`), nested scripts (`sh -c 'git push'`)
 * and computed names whose guess matches are caught as well. True when it matched.
 */
export function checkUserDenylist(name: string, args: readonly Arg[], ctx: ArgvContext): boolean {
  for (const entry of ctx.policy.userDenylist) {
    if (entry[0] !== name || !inOrder(entry.slice(1), args.slice(1))) continue;
    ctx.findings.forbid(
      `\`${entry.join(" ")}\` is on your deny list (agent.terminal.custom_denylist); it never runs.`,
    );
    return true;
  }
  return false;
}
