import { lstat } from "node:fs/promises";
import path from "node:path";
import { PathOutsideWorkspaceError, PathProtectedError } from "../path-guard-error.js";
import type { PathGuard } from "../path-guard.js";
import { isSecretFileName } from "../protected-paths.js";
import type { Arg, ArgvContext } from "./context.js";
import type { Findings, PathAccess, PathRequest, Severity } from "./findings.js";
import { hasParentStep, physicalPath } from "./physical-path.js";
import { scanTree } from "./tree-scan.js";
import { isUnknownLocation } from "./working-directory.js";

/** Paths that any program may write: they discard or print. */
const WRITE_SINKS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2"]);

/** At most this many paths of one command are resolved on disk; more fail closed. */
const MAX_PATH_CHECKS = 256;
/** At most this many directory trees of one command are walked for secrets and hard links. */
const MAX_TREE_SCANS = 4;

/** The literal directory a glob starts from (`/e*c/pass*` → `/`, `src/*.ts` → `src`). */
export function globBase(pattern: string): string {
  const firstGlob = pattern.search(/[*?[]/);
  if (firstGlob === -1) return pattern;
  const slash = pattern.lastIndexOf("/", firstGlob);
  if (slash === -1) return ".";
  return slash === 0 ? "/" : pattern.slice(0, slash);
}

/**
 * `value` made absolute against the directory the command runs in, when that is not the
 * workspace root (the check's `cwd`, or `cd /` in the script). Not normalised: `..` after
 * a symlink must be resolved physically, as the kernel does.
 */
export function againstCwd(ctx: ArgvContext, value: string): string {
  return ctx.cwd === null || value.startsWith("/") ? value : `${ctx.cwd}/${value}`;
}

/** Records that the script downloaded the file `value`. */
export function markDownloaded(ctx: ArgvContext, value: string): void {
  if (value !== "" && value !== "-")
    ctx.downloads.add(path.posix.normalize(againstCwd(ctx, value)));
}

/** Whether the script downloaded the file `value` earlier: running it is download-and-execute. */
export function isDownloaded(ctx: ArgvContext, value: string): boolean {
  return ctx.downloads.has(path.posix.normalize(againstCwd(ctx, value)));
}

/** Queues a path argument of `program` for the workspace check. Embedded argv are not checked. */
export function requestPath(
  ctx: ArgvContext,
  arg: Arg,
  access: PathAccess,
  program: string,
  outside: Severity = "block",
  recursive = false,
  secret: Severity = "confirm",
): void {
  if (ctx.embedded) return;
  if (arg.exact && arg.value === "") {
    ctx.findings.confirm(`\`${program}\` is given an empty path argument; it needs confirmation.`);
    return;
  }
  const computed = !arg.exact || arg.glob;
  const target = againstCwd(ctx, arg.glob ? globBase(arg.value) : arg.value);
  if (computed && target === "") return;
  ctx.findings.path({
    path: target,
    shown: arg.raw,
    access,
    program,
    exact: !computed,
    outside,
    recursive,
    secret,
  });
}

function verb(access: PathAccess): string {
  return access === "read" ? "reads" : "writes";
}

async function isHardLinkedFile(real: string): Promise<boolean> {
  try {
    const stats = await lstat(real);
    return stats.isFile() && stats.nlink > 1;
  } catch {
    return false;
  }
}

function describe(request: PathRequest): string {
  const written = request.shown.replace(/^(['"])(.*)\1$/s, "$2");
  return written === request.path || written === ""
    ? `\`${request.path}\``
    : `\`${written}\` (\`${request.path}\`)`;
}

/** `sensitive`: the path looks secret or may be a file outside (a hard link). */
type Result = { severity: Severity; reason: string; sensitive?: boolean } | null;

/**
 * A path below a directory the check cannot know (`~-`, `$OLDPWD`, after `cd "$dir"`):
 * judged like a path outside the workspace, as `$UNSET/x` is (`/x`).
 */
function unknownLocation(request: PathRequest, shown: string): Result {
  const severity = request.outside;
  const tail = severity === "block" ? "it is refused in every mode" : "it needs confirmation";
  return {
    severity,
    reason: `\`${request.program}\` ${verb(request.access)} ${shown} in a directory the check cannot know (\`$OLDPWD\`, \`~-\`, or a \`cd\` to a computed place), which may be outside the workspace; ${tail}.`,
  };
}

async function checkResolved(
  request: PathRequest,
  target: string,
  guard: PathGuard,
): Promise<Result> {
  const { program, access } = request;
  const shown = describe(request);
  let real: string;
  try {
    real = access === "write" ? await guard.resolveForWrite(target) : await guard.resolve(target);
  } catch (error) {
    if (error instanceof PathProtectedError) {
      return {
        severity: "block",
        reason: `\`${program}\` writes ${shown}, which is protected (git hooks or config, editor tasks, shell startup files run code later); it is refused in every mode.`,
      };
    }
    if (error instanceof PathOutsideWorkspaceError) {
      const why =
        error.refusal === "invalid-path"
          ? "which is not a valid path"
          : "which is outside the workspace";
      const tail =
        request.outside === "block" ? "it is refused in every mode" : "it needs confirmation";
      return {
        severity: request.outside,
        reason: `\`${program}\` ${verb(access)} ${shown}, ${why}; ${tail}.`,
      };
    }
    return {
      severity: "confirm",
      reason: `${shown} could not be checked against the workspace; it needs confirmation.`,
    };
  }
  if (access === "write" && guard.isProtected(real)) {
    return {
      severity: "block",
      reason: `\`${program}\` writes ${shown}, a file that makes another program run code or changes what an agent does (editor, agent, direnv, package-manager, git or hook settings, shell startup files); it is refused in every mode.`,
    };
  }
  if (!request.exact) return null;
  if (isSecretFileName(target) || isSecretFileName(real)) {
    const severity = request.secret ?? "confirm";
    return {
      severity,
      sensitive: true,
      reason: `\`${program}\` ${verb(access)} ${shown}, a file that holds secrets; ${severity === "block" ? "it is refused in every mode" : "it needs confirmation"}.`,
    };
  }
  if (access === "read" && (await isHardLinkedFile(real))) {
    return {
      severity: "confirm",
      sensitive: true,
      reason: `${shown} is a hard link (more than one name for the file), so it may be a file outside the workspace; it needs confirmation.`,
    };
  }
  if (request.recursive === true) {
    const problem = await scanTree(real);
    if (problem?.kind === "too-large") {
      return {
        severity: "confirm",
        reason: `\`${program}\` reads every file below ${shown}, too many to check for secrets and hard links; it needs confirmation.`,
      };
    }
    if (problem !== null) {
      const what =
        problem.kind === "secret"
          ? "a file that holds secrets"
          : "a hard link that may be a file outside the workspace";
      return {
        severity: "confirm",
        sensitive: true,
        reason: `\`${program}\` reads every file below ${shown}, including \`${path.relative(guard.root, problem.path)}\`, ${what}; it needs confirmation.`,
      };
    }
  }
  return null;
}

/**
 * Checks one path the way the command will open it: lexically through the guard, and,
 * when it has a `..` step, also physically (a symlink before the `..` is followed first,
 * as the kernel does: `x/../y` with `x -> /etc` is `/y`). The worse finding counts.
 */
async function checkOne(request: PathRequest, guard: PathGuard): Promise<Result> {
  const { path: target, program, access } = request;
  const shown = describe(request);
  if (/^\/dev\/(?:tcp|udp)\//.test(target)) {
    return {
      severity: "block",
      reason: `\`${program}\` opens ${shown}, a network connection (reverse shell or exfiltration); it is refused in every mode.`,
    };
  }
  if (access === "write" && WRITE_SINKS.has(path.posix.normalize(target))) return null;
  if (isUnknownLocation(target)) return unknownLocation(request, shown);
  const candidates = [target];
  const absolute = target.startsWith("/") ? target : `${guard.root}/${target}`;
  if (hasParentStep(absolute)) {
    try {
      const physical = await physicalPath(absolute, guard.root);
      if (physical !== path.posix.normalize(absolute)) candidates.push(physical);
    } catch {
      return {
        severity: "confirm",
        reason: `${shown} goes through too many symlinks to check; it needs confirmation.`,
      };
    }
  }
  let worst: Result = null;
  for (const candidate of candidates) {
    const result = await checkResolved(request, candidate, guard);
    if (result !== null && (worst === null || result.severity === "block")) worst = result;
  }
  return worst;
}

/** Resolves every queued path through the guard and records what it finds, in order. */
export async function checkPaths(findings: Findings, guard: PathGuard): Promise<void> {
  const requests = findings.paths.slice(0, MAX_PATH_CHECKS);
  if (findings.paths.length > MAX_PATH_CHECKS) {
    findings.confirm(
      `The command has more than ${String(MAX_PATH_CHECKS)} path arguments, too many to check; it needs confirmation.`,
    );
  }
  const recursive = requests.filter((request) => request.recursive === true);
  if (recursive.length > MAX_TREE_SCANS) {
    findings.confirm(
      `The command reads more than ${String(MAX_TREE_SCANS)} directory trees, too many to check; it needs confirmation.`,
    );
  }
  const scanned = new Set(recursive.slice(0, MAX_TREE_SCANS));
  const results = await Promise.all(
    requests.map((request) =>
      checkOne(
        request.recursive === true && !scanned.has(request)
          ? { ...request, recursive: false }
          : request,
        guard,
      ),
    ),
  );
  for (const result of results) {
    if (result === null) continue;
    if (result.sensitive === true) findings.sensitive = true;
    if (result.severity === "block") findings.block(result.reason);
    else findings.confirm(result.reason);
  }
}
