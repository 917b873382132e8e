import { lstat } from "node:fs/promises";
import path from "node:path";
import { PathOutsideWorkspaceError, PathProtectedError } from "../path-guard-error.js";
import type { PathGuard } from "../path-guard.js";
import { isSecretFileName } from "../protected-paths.js";
import type { Arg, ArgvContext } from "./context.js";
import type { Findings, PathAccess, PathRequest } from "./findings.js";
import type { EscalationKind } from "./types.js";
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

/** Options of {@link requestPath}. */
export interface PathRequestOptions {
  /** Every file below the path is read (`grep -r`). */
  readonly recursive?: boolean;
  /** The word only looks like a path (an unknown program's argument). */
  readonly guessed?: boolean;
}

/** Queues a path argument of `program` for the workspace check. */
export function requestPath(
  ctx: ArgvContext,
  arg: Arg,
  access: PathAccess,
  program: string,
  options: PathRequestOptions = {},
): void {
  if (arg.exact && arg.value === "") {
    ctx.findings.confirm(`\`${program}\` is given an empty path argument; it runs in the sandbox.`);
    return;
  }
  // A value the walk knows (a tilde, a brace, a variable the script set) is judged as
  // exactly; one it cannot know (a substitution, an unset variable, a glob) is the sandbox's.
  const computed = arg.glob || arg.substituted || arg.unknown === true || arg.opaque === true;
  const target = againstCwd(ctx, arg.glob ? globBase(arg.value) : arg.value);
  if (computed && target === "") return;
  ctx.findings.path({
    path: target,
    shown: arg.raw,
    access,
    program,
    exact: !computed,
    ...(options.recursive === true ? { recursive: true } : {}),
    ...(options.guessed === true ? { guessed: true } : {}),
  });
}

function verb(access: PathAccess): string {
  return access === "read" ? "reads" : "writes";
}

/**
 * Places outside the workspace that the sandbox shows (the system, read-only, with
 * credentials masked) or gives each command privately (`/tmp`): naming one is no reason to
 * ask, but it is not provably read-only inside the workspace either.
 */
const SANDBOX_VISIBLE = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/etc",
  "/tmp",
  "/var/tmp",
  "/dev/null",
  "/dev/zero",
  "/dev/random",
  "/dev/urandom",
  "/dev/stdin",
  "/dev/stdout",
  "/dev/stderr",
  "/dev/fd",
  "/proc/self",
];

function sandboxShows(target: string): boolean {
  const normal = path.posix.normalize(target);
  return SANDBOX_VISIBLE.some((place) => normal === place || normal.startsWith(`${place}/`));
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

/** What one path adds: it keeps the command from running directly, or it escalates. */
type Result =
  | { readonly severity: "sandbox"; readonly reason: string }
  | { readonly severity: "escalate"; readonly kind: EscalationKind; readonly reason: string }
  | null;

const IN_SANDBOX = "it runs in the sandbox";
const A_PERSON = "a person decides";

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
      return request.exact
        ? {
            severity: "escalate",
            kind: "protected",
            reason: `\`${program}\` writes ${shown}, which is protected (git internals, or a file that makes another program run code); ${A_PERSON}.`,
          }
        : {
            severity: "sandbox",
            reason: `\`${program}\` may write a protected path; ${IN_SANDBOX}, which keeps it.`,
          };
    }
    if (error instanceof PathOutsideWorkspaceError) {
      if (!request.exact || sandboxShows(target))
        return {
          severity: "sandbox",
          reason: `\`${program}\` ${verb(access)} ${shown}, outside the workspace; ${IN_SANDBOX}.`,
        };
      const why =
        error.refusal === "invalid-path"
          ? "which is not a valid path"
          : "which is outside the workspace";
      return {
        severity: "escalate",
        kind: "outside",
        reason: `\`${program}\` ${verb(access)} ${shown}, ${why} and hidden from the sandbox; ${A_PERSON}.`,
      };
    }
    return {
      severity: "sandbox",
      reason: `${shown} could not be checked against the workspace; ${IN_SANDBOX}.`,
    };
  }
  if (access === "write" && guard.isProtected(real)) {
    return request.exact
      ? {
          severity: "escalate",
          kind: "protected",
          reason: `\`${program}\` writes ${shown}, a file that makes another program run code or changes what an agent does; ${A_PERSON}.`,
        }
      : {
          severity: "sandbox",
          reason: `\`${program}\` may write a protected path; ${IN_SANDBOX}, which keeps it.`,
        };
  }
  if (!request.exact) return null;
  if (isSecretFileName(target) || isSecretFileName(real)) {
    return {
      severity: "escalate",
      kind: "secret",
      reason: `\`${program}\` ${verb(access)} ${shown}, a file that holds secrets; ${A_PERSON}.`,
    };
  }
  if (access === "read" && (await isHardLinkedFile(real))) {
    return {
      severity: "escalate",
      kind: "secret",
      reason: `${shown} is a hard link (more than one name for the file), so it may be a file outside the workspace; ${A_PERSON}.`,
    };
  }
  if (request.recursive === true) {
    const problem = await scanTree(real);
    if (problem?.kind === "too-large")
      return {
        severity: "sandbox",
        reason: `\`${program}\` reads every file below ${shown}, too many to check for secrets; ${IN_SANDBOX}, which hides them.`,
      };
    if (problem !== null) {
      const what =
        problem.kind === "secret"
          ? "a file that holds secrets"
          : "a hard link that may be a file outside the workspace";
      return {
        severity: "escalate",
        kind: "secret",
        reason: `\`${program}\` reads every file below ${shown}, including \`${path.relative(guard.root, problem.path)}\`, ${what}; ${A_PERSON}.`,
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
      severity: "escalate",
      kind: "network",
      reason: `\`${program}\` opens ${shown}, a network connection; ${A_PERSON}.`,
    };
  }
  if (access === "write" && WRITE_SINKS.has(path.posix.normalize(target))) return null;
  if (isUnknownLocation(target))
    return {
      severity: "sandbox",
      reason: `\`${program}\` ${verb(access)} ${shown} in a directory the check cannot know; ${IN_SANDBOX}.`,
    };
  const candidates = [target];
  const absolute = target.startsWith("/") ? target : `${guard.root}/${target}`;
  if (hasParentStep(absolute)) {
    try {
      const physical = await physicalPath(absolute, guard.root);
      if (physical !== path.posix.normalize(absolute)) candidates.push(physical);
    } catch {
      return {
        severity: "sandbox",
        reason: `${shown} goes through too many symlinks to check; ${IN_SANDBOX}.`,
      };
    }
  }
  let worst: Result = null;
  for (const candidate of candidates) {
    const result = await checkResolved(request, candidate, guard);
    if (result !== null && (worst === null || result.severity === "escalate")) worst = result;
  }
  return worst;
}

/** Resolves every queued path through the guard and records what it finds, in order. */
export async function checkPaths(findings: Findings, guard: PathGuard): Promise<void> {
  const requests = findings.paths.slice(0, MAX_PATH_CHECKS);
  if (findings.paths.length > MAX_PATH_CHECKS)
    findings.incomplete(
      `The command has more than ${String(MAX_PATH_CHECKS)} path arguments, too many to check; ${A_PERSON}.`,
    );
  const recursive = requests.filter((request) => request.recursive === true);
  if (recursive.length > MAX_TREE_SCANS)
    findings.confirm(
      `The command reads more than ${String(MAX_TREE_SCANS)} directory trees, too many to check; ${IN_SANDBOX}.`,
    );
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
    if (result.severity === "escalate") findings.escalate(result.kind, result.reason);
    else findings.confirm(result.reason);
  }
}
