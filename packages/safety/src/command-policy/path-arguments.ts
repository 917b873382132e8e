import { lstat } from "node:fs/promises";
import path from "node:path";
import { PathOutsideWorkspaceError, PathProtectedError } from "../path-guard-error.js";
import type { PathGuard } from "../path-guard.js";
import { isSecretFileName } from "../protected-paths.js";
import { MOVED, type Arg, type ArgvContext } from "./context.js";
import type { Finding, Findings, PathAccess, PathRequest } from "./findings.js";
import { scanTree } from "./tree-scan.js";
import type { EscalationKind } from "./types.js";

/** Paths that any program may write: they discard or print. */
const WRITE_SINKS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2"]);
/** At most this many paths of one command are resolved on disk; more fail closed. */
const MAX_PATH_CHECKS = 256;
/** At most this many directory trees of one command are walked for secrets and hard links. */
const MAX_TREE_SCANS = 4;
/**
 * Places outside the workspace that the sandbox shows (the system, read-only, with
 * credentials masked) or gives each command privately (`/tmp`): naming one is no reason to
 * ask, but it is not provably read-only inside the workspace either.
 */
const SANDBOX_VISIBLE = (
  "/usr /bin /sbin /lib /lib32 /lib64 /libx32 /etc /tmp /var/tmp /dev/null /dev/zero " +
  "/dev/random /dev/urandom /dev/stdin /dev/stdout /dev/stderr /dev/fd /proc/self"
).split(" ");

/**
 * Queues a path argument of `program` for the workspace check (`recursive`: every file
 * below it is read, as by `grep -r`). A computed path (unknown to
 * the check) is the sandbox's to judge; the word is not plain, so the command runs there.
 * After a `cd` in the script a relative path names an unknown place: only a secret-looking
 * name still counts.
 */
export function requestPath(
  ctx: ArgvContext,
  arg: Arg,
  access: PathAccess,
  program: string,
  recursive = false,
): void {
  if (!arg.known) return;
  if (arg.value === "") {
    ctx.findings.confirm(`\`${program}\` is given an empty path argument`);
    return;
  }
  const relative = !arg.value.startsWith("/");
  // `a/../b` climbs out of where `a` leads, which a symlink may place anywhere.
  const parts = arg.value.split("/").filter((part) => part !== "" && part !== ".");
  const named = parts.findIndex((part) => part !== "..");
  if (named !== -1 && parts.slice(named).includes(".."))
    ctx.findings.confirm(
      `\`${program}\` is given \`${arg.raw}\`, which goes back up with \`..\` after a name`,
    );
  if (ctx.cwd === MOVED && relative) {
    if (access !== "list" && isSecretFileName(arg.value))
      ctx.findings.escalate(
        "secret",
        `\`${program}\` reads \`${arg.raw}\`, a file that holds secrets`,
      );
    return;
  }
  ctx.findings.path({
    path: ctx.cwd === null || !relative ? arg.value : `${ctx.cwd}/${arg.value}`,
    shown: arg.raw,
    access,
    program,
    recursive,
  });
}

/**
 * Words of a program the check does not know that name a place by themselves: an absolute
 * path, `~…`, `..` steps, or a secret-looking name (`.env`). `--out=/srv/x` counts by its
 * value. URLs and words with spaces are left alone.
 */
export function pathLike(value: string): string | null {
  const candidate = /^--?[A-Za-z][\w-]*=(.*)$/s.exec(value)?.[1] ?? value;
  if (candidate === "" || candidate.includes("://") || /\s/.test(candidate)) return null;
  if (/^(?:\/|~|\.\.(?:\/|$))/.test(candidate) || /(?:^|\/)\.\.(?:\/|$)/.test(candidate))
    return candidate;
  return /^\.[^./]/.test(candidate.split("/").pop() ?? "") ? candidate : null;
}

function sandboxShows(target: string): boolean {
  const normal = path.posix.normalize(target);
  return SANDBOX_VISIBLE.some((place) => normal === place || normal.startsWith(`${place}/`));
}

async function isHardLinkedFile(real: string): Promise<boolean> {
  const stats = await lstat(real).catch(() => null);
  return stats !== null && stats.isFile() && stats.nlink > 1;
}

function describe(request: PathRequest): string {
  const written = request.shown.replace(/^(['"])(.*)\1$/s, "$2");
  return written === request.path || written === ""
    ? `\`${request.path}\``
    : `\`${written}\` (\`${request.path}\`)`;
}

/** What one path adds: it keeps the command from running directly, or it escalates. */
type Result = Finding | null;
const sandboxed = (reason: string): Result => ({ severity: "sandbox", reason });
const escalated = (kind: EscalationKind, reason: string): Result => ({
  severity: "escalate",
  kind,
  reason,
});

/** Checks one path through the guard (lexically: a `..` after a name never runs directly). */
async function checkResolved(request: PathRequest, guard: PathGuard): Promise<Result> {
  const { program, access, path: target } = request;
  const shown = describe(request);
  const verb = access === "write" ? "writes" : "reads";
  const protectedWrite = `\`${program}\` writes ${shown}, which is protected (git internals, or a file that makes another program run code)`;
  let real: string;
  try {
    real = access === "write" ? await guard.resolveForWrite(target) : await guard.resolve(target);
  } catch (error) {
    if (error instanceof PathProtectedError) return escalated("protected", protectedWrite);
    if (!(error instanceof PathOutsideWorkspaceError))
      return sandboxed(`${shown} could not be checked against the workspace`);
    if (sandboxShows(target))
      return sandboxed(`\`${program}\` ${verb} ${shown}, outside the workspace`);
    const why = error.refusal === "invalid-path" ? "not a valid path" : "outside the workspace";
    return escalated(
      "outside",
      `\`${program}\` ${verb} ${shown}, which is ${why} and hidden from the sandbox`,
    );
  }
  if (access === "write" && guard.isProtected(real)) return escalated("protected", protectedWrite);
  if (access === "list") return null;
  if (isSecretFileName(target) || isSecretFileName(real))
    return escalated("secret", `\`${program}\` ${verb} ${shown}, a file that holds secrets`);
  if (access === "read" && (await isHardLinkedFile(real)))
    return escalated(
      "secret",
      `${shown} is a hard link (more than one name for the file), so it may be a file outside the workspace`,
    );
  if (!request.recursive) return null;
  const problem = await scanTree(real);
  if (problem === null) return null;
  if (problem.kind === "hard-link")
    return escalated(
      "secret",
      `\`${program}\` reads every file below ${shown}, including \`${path.relative(guard.root, problem.path)}\`, a hard link that may be a file outside the workspace`,
    );
  // The sandbox masks the workspace's secrets: a search that only passes by them runs there.
  return sandboxed(
    problem.kind === "secret"
      ? `\`${program}\` reads every file below ${shown}, including \`${path.relative(guard.root, problem.path)}\`, a file that holds secrets; it runs in the sandbox, which masks it.`
      : `\`${program}\` reads every file below ${shown}, too many to check for secrets; it runs in the sandbox, which masks them.`,
  );
}

async function checkOne(request: PathRequest, guard: PathGuard): Promise<Result> {
  if (request.access === "write" && WRITE_SINKS.has(path.posix.normalize(request.path)))
    return null;
  return checkResolved(request, guard);
}

/** Resolves every queued path through the guard and records what it finds, in order. */
export async function checkPaths(findings: Findings, guard: PathGuard): Promise<void> {
  const requests = findings.paths.slice(0, MAX_PATH_CHECKS);
  if (findings.paths.length > MAX_PATH_CHECKS)
    findings.incomplete(
      `The command has more than ${String(MAX_PATH_CHECKS)} path arguments, too many to check`,
    );
  const recursive = requests.filter((request) => request.recursive);
  if (recursive.length > MAX_TREE_SCANS)
    findings.confirm(
      `The command reads more than ${String(MAX_TREE_SCANS)} directory trees, too many to check`,
    );
  const scanned = new Set(recursive.slice(0, MAX_TREE_SCANS));
  const results = await Promise.all(
    requests.map((request) =>
      checkOne(
        request.recursive && !scanned.has(request) ? { ...request, recursive: false } : request,
        guard,
      ),
    ),
  );
  for (const result of results) {
    if (result === null) continue;
    if (result.kind !== undefined) findings.escalate(result.kind, result.reason);
    else findings.confirm(result.reason);
  }
}
