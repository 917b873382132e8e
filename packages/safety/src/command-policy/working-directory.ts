import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { PathGuard } from "../path-guard.js";
import type { Arg } from "./context.js";
import { hasParentStep, physicalPath } from "./physical-path.js";

/**
 * Stands for a directory the check cannot know: `$OLDPWD` and `~-` inherited from the
 * environment, or where `cd "$dir"` went when `$dir` is unknown. Paths below it are
 * judged as outside the workspace.
 */
export const UNKNOWN_DIRECTORY = "/\u2039unknown-directory\u203a";

/** Where the directory stack of `pushd`/`popd` is kept in a walk's variables (no shell name can clash). */
const DIRECTORY_STACK = "\u0000dirstack";

/** Whether `value` lies below {@link UNKNOWN_DIRECTORY}. */
export function isUnknownLocation(value: string): boolean {
  return value === UNKNOWN_DIRECTORY || value.startsWith(`${UNKNOWN_DIRECTORY}/`);
}

/** The directory a command starts in, and why it can never be `allow`, if so. */
export interface StartDirectory {
  /** The real absolute path (or {@link UNKNOWN_DIRECTORY} when it cannot be resolved). */
  readonly path: string;
  /** Why the directory disqualifies the command from `allow`; null when it is fine. */
  readonly problem: string | null;
}

function within(parent: string, candidate: string): boolean {
  const relative = path.relative(parent, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Resolves the `cwd` option of a check the way `chdir(2)` would: relative to the
 * workspace root (or absolute), symlinks and `..` physically. It must be an existing
 * directory inside the workspace; otherwise `problem` says why.
 */
export async function resolveStartDirectory(
  cwd: string | undefined,
  guard: PathGuard,
): Promise<StartDirectory> {
  const root = guard.root;
  if (cwd === undefined) return { path: root, problem: null };
  const given = String(cwd);
  const problem = (why: string) =>
    `The working directory \`${given}\` ${why}, so the command needs confirmation.`;
  if (given.includes("\0") || given.trim() === "")
    return { path: UNKNOWN_DIRECTORY, problem: problem("is not a valid path") };
  const candidate = given.startsWith("/") ? given : `${root}/${given}`;
  let real: string;
  try {
    // Without `..`, realpath alone resolves it as chdir would.
    real = await realpath(
      hasParentStep(candidate) ? await physicalPath(candidate, root) : candidate,
    );
  } catch {
    return { path: UNKNOWN_DIRECTORY, problem: problem("cannot be resolved to a directory") };
  }
  const isDirectory = await stat(real).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  if (!isDirectory) return { path: real, problem: problem("is not a directory") };
  if (!within(root, real))
    return { path: real, problem: problem(`is outside the workspace (it is \`${real}\`)`) };
  return { path: real, problem: null };
}

function readStack(env: ReadonlyMap<string, string>): string[] {
  const stored = env.get(DIRECTORY_STACK);
  return stored === undefined || stored === "" ? [] : stored.split("\n");
}

/**
 * The directory stack as `dirs` prints it: the current directory first, then what
 * `pushd` saved, newest first. `~+N` is entry N, `~-N` entry N from the end.
 */
export function directoryStack(env: ReadonlyMap<string, string>, root: string): string[] {
  return [env.get("PWD") ?? root, ...readStack(env).reverse()];
}

function target(args: readonly Arg[], env: ReadonlyMap<string, string>, home: string): string {
  const operands = args.slice(1).filter((arg) => !/^-[LPe@]+$/.test(arg.value));
  const first = operands[0]?.value === "--" ? operands[1] : operands[0];
  if (first === undefined) return env.get("HOME") ?? home;
  if (first.value === "-") return env.get("OLDPWD") ?? UNKNOWN_DIRECTORY;
  return first.unknown === true ? UNKNOWN_DIRECTORY : first.value;
}

/** Set once a physical `cd` made the tracked directory a path for the kernel to resolve. */
const RAW_PWD = "\u0000raw-pwd";

function moveTo(env: Map<string, string>, from: string, to: string, physical: boolean): void {
  let next: string;
  if (isUnknownLocation(to)) next = UNKNOWN_DIRECTORY;
  else if (!to.startsWith("/") && isUnknownLocation(from)) next = UNKNOWN_DIRECTORY;
  else if (physical) {
    // `cd -P a/..` goes to the parent of where `a` leads, and after `cd -P link` a plain
    // `cd ..` leaves where the link leads: the path is kept as written, links and `..`
    // included, for every check to resolve as the kernel does; so is every later `cd`.
    env.set(RAW_PWD, "1");
    next = to.startsWith("/") ? to : `${from.replace(/\/+$/, "")}/${to}`;
  } else if (to.startsWith("/")) next = path.posix.normalize(to);
  else next = path.posix.resolve(from, to);
  env.set("OLDPWD", from).set("PWD", next);
}

/** Set in a walk's variables once `set -P` or `set -o physical` made every `cd` physical. */
const PHYSICAL = "\u0000physical-cd";

/** Follows `set -P` and `set -o physical` (never undone here: physical is the safer view). */
export function trackPhysicalOption(args: readonly string[], env: Map<string, string>): void {
  // `set -P`, `set -o physical`, and `shopt -s -o physical` (the same option).
  const physical = args.some(
    (arg, index) =>
      /^-[a-zA-Z]*P/.test(arg) || (/^-[a-zA-Z]*o$/.test(arg) && args[index + 1] === "physical"),
  );
  if (physical) env.set(PHYSICAL, "1");
}

function isPhysical(args: readonly Arg[], env: ReadonlyMap<string, string>): boolean {
  if (env.has(PHYSICAL) || env.has(RAW_PWD)) return true;
  for (const arg of args.slice(1)) {
    if (arg.value === "--" || !/^-[LPe@]+$/.test(arg.value)) break;
    if (arg.value.includes("P")) return true;
  }
  return false;
}

/**
 * Follows `cd`, `pushd` and `popd` (logically, as bash's default `cd -L` does; physically
 * after `cd -P` or `set -P`) in a
 * walk's variables: `PWD`, `OLDPWD` and the directory stack. A target the check cannot
 * know makes the directory {@link UNKNOWN_DIRECTORY}.
 */
export function changeDirectory(
  name: string,
  args: readonly Arg[],
  env: Map<string, string>,
  home: string,
  root: string,
): void {
  const from = env.get("PWD") ?? root;
  if (name === "cd") {
    const to = target(args, env, home);
    if (to !== "") moveTo(env, from, to, isPhysical(args, env));
    return;
  }
  const stack = readStack(env);
  const operand = args.slice(1).find((arg) => arg.value !== "-n");
  if (name === "pushd") {
    if (operand === undefined || /^[+-]\d+$/.test(operand.value)) {
      // Rotating the stack: where it ends up is not followed.
      env.set("OLDPWD", from).set("PWD", UNKNOWN_DIRECTORY);
      return;
    }
    stack.push(from);
    moveTo(env, from, target(args, env, home), isPhysical(args, env));
  } else if (name === "popd") {
    const previous = operand === undefined ? stack.pop() : undefined;
    env.set("OLDPWD", from).set("PWD", previous ?? UNKNOWN_DIRECTORY);
    if (operand !== undefined) stack.length = 0;
  } else return;
  env.set(DIRECTORY_STACK, stack.join("\n"));
}
