import {
  defineTool,
  toolFailure,
  toolSuccess,
  type Tool,
  type ToolAssessment,
} from "@xzatoma/core";
import {
  createAllowance,
  createEgressHostMatcher,
  type AuditLog,
  type Sandbox,
  type SandboxEgress,
} from "@xzatoma/safety";
import { lstat } from "node:fs/promises";
import { collectProcess } from "./collect-process.js";
import { TERMINAL_DESCRIPTION } from "./descriptions/terminal.js";
import {
  describeSandboxOutcome,
  describeSandboxReport,
  judgeSandboxChange,
  protectedEntries,
  sandboxReport,
} from "./sandbox-rules.js";
import { createContentScreen } from "./secret-content.js";
import { guardPath } from "./tool-paths.js";
import { withWorkspaceLock, type WorkspaceContext } from "./workspace-context.js";
import { builtinInput } from "./builtin-input.js";

/** Judges a command: the command policy of `@xzatoma/safety` fits this shape. */
export interface CommandJudge {
  check(
    command: string,
    options?: { readonly cwd?: string },
  ): Promise<{
    readonly outcome: "direct" | "sandbox" | "escalate" | "forbidden";
    readonly reason: string;
    readonly programs?: readonly string[];
    readonly escalations?: readonly { readonly kind: string; readonly reason: string }[];
  }>;
}

/** Options of {@link createTerminalTool}. */
export interface TerminalToolOptions {
  /** Judges every command before it runs. Required: there is no terminal without a policy. */
  readonly commandPolicy: CommandJudge;
  /** Confines commands; see `createSandbox` in `@xzatoma/safety`. */
  readonly sandbox: Sandbox;
  /** Receives one line per executed command. */
  readonly auditLog?: AuditLog;
  /** Default 30 s; the model may ask for up to `maxTimeoutSeconds`. */
  readonly timeoutSeconds?: number;
  readonly maxTimeoutSeconds?: number;
  /** Default 10 MB and 1 MB: what a command's output may hold before it is cut. */
  readonly maxStdoutBytes?: number;
  readonly maxStderrBytes?: number;
  /**
   * Give sandboxed commands the network without asking (a command that needs it then runs
   * unasked). Default false: a command that needs the network is an escalation, and gets it
   * only with a person's yes.
   */
  readonly network?: boolean;
  /**
   * Hosts a command that needs the network may reach, through the sandbox's egress proxy
   * (`host`, `host:port`, `*.domain`); such a command gets them with a person's yes.
   */
  readonly egressHosts?: readonly string[];
  /**
   * A command whose only escalation is the network reaches {@link egressHosts} unasked,
   * unless the session already read something secret. Default false.
   */
  readonly egressUnattended?: boolean;
  /** Existing paths that stay read-only inside the sandbox (added to the workspace's protected ones). */
  readonly readOnlyPaths?: readonly string[];
  /**
   * Let git commands that write `.git` (commit, checkout…) run in the sandbox with `.git`
   * writable without a person's yes. Default false: such a command is an escalation, and
   * every other command sees `.git` read-only.
   */
  readonly allowUnattendedGitWrites?: boolean;
  /**
   * Called once when the sandbox turns out to be unusable at the first command (its
   * start-up check failed), with the sandbox's warning, for the person to see.
   */
  readonly onSandboxWarning?: (warning: string) => void;
}

/** The environment commands get: a fixed trusted PATH and nothing secret from the agent's own. */
export function sanitizedEnvironment(
  workspace: string,
  source: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const environment: Record<string, string> = {
    PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    HOME: workspace,
    TMPDIR: "/tmp",
    TERM: "dumb",
    NO_COLOR: "1",
    PAGER: "cat",
    GIT_PAGER: "cat",
    GIT_TERMINAL_PROMPT: "0",
    // A repository's own config can name a program git runs on a read (`core.fsmonitor` on
    // `git status`); a read-only git command may run without a sandbox, so commands get git
    // with that key overridden at the highest level, the command line's.
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "core.fsmonitor",
    GIT_CONFIG_VALUE_0: "false",
  };
  for (const name of ["LANG", "LC_ALL", "LC_CTYPE", "TZ"]) {
    const value = source[name];
    if (value !== undefined) environment[name] = value;
  }
  return environment;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group is already gone.
  }
}

/** What assess found out about a call, for its execution. */
interface Judgement {
  readonly outcome: string;
  readonly kinds: ReadonlySet<string>;
  readonly gitWrite: boolean;
  readonly network: boolean;
}

const NO_SANDBOX_FIX =
  "Install bubblewrap (apt-get install bubblewrap) and allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or kernel.apparmor_restrict_unprivileged_userns=0) so that such commands run in the sandbox unasked.";

/** The reason a person (or, unattended, the model) reads for a command that needs a person. */
function escalationReason(
  decision: Awaited<ReturnType<CommandJudge["check"]>>,
  confined: boolean,
  warning: string | undefined,
): string {
  const reasons = (decision.escalations ?? []).map((escalation) => escalation.reason);
  if (reasons.length === 0 && decision.outcome !== "sandbox") reasons.push(decision.reason);
  if (!confined) {
    const why = (warning ?? "The sandbox is not available.").replace(/\.?\s*$/, ".");
    const fix = why.includes("apt-get install bubblewrap") ? "" : ` ${NO_SANDBOX_FIX}`;
    const what = decision.reason
      .replace(/[;,]?\s*it runs in the sandbox[^.]*\.?\s*$/, "")
      .replace(/\.\s*$/, "");
    reasons.push(
      decision.outcome === "sandbox"
        ? `It is not provably read-only (${what}), and there is no working sandbox to run it in. ${why}${fix}`
        : `It would also run without a sandbox. ${why}${fix}`,
    );
  }
  return reasons.join(" ");
}

/** What a person approving a command that needs the network should know. */
function networkNote(hosts: readonly string[], exposed: boolean): string {
  const where =
    hosts.length === 0
      ? " No hosts are allowed for commands (agent.terminal.egress_hosts), so even with a yes it runs without network."
      : ` With a yes it reaches only ${hosts.join(", ")} (agent.terminal.egress_hosts), through XZatoma's egress proxy.`;
  return exposed
    ? `${where} Something secret was read in this session, so only a person may let it reach the network.`
    : where;
}

function section(name: string, text: string, truncated: boolean, limit: number): string {
  if (text === "" && !truncated) return "";
  const note = truncated ? `\n[${name} cut at ${limit} bytes]` : "";
  return `--- ${name} ---\n${text}${note}\n`;
}

/**
 * The `terminal` tool: runs a command that the command policy judged, inside the sandbox,
 * with a sanitised environment and no standard input, and kills its whole process group
 * on timeout or cancellation.
 */
export function createTerminalTool(
  workspace: WorkspaceContext,
  options: TerminalToolOptions,
): Tool {
  const defaultTimeout = options.timeoutSeconds ?? 30;
  const maxTimeout = options.maxTimeoutSeconds ?? 600;
  const maxStdout = options.maxStdoutBytes ?? 10 * 1024 * 1024;
  const maxStderr = options.maxStderrBytes ?? 1024 * 1024;
  let warned = false;
  const egressHosts = options.egressHosts ?? [];
  const egress: SandboxEgress | undefined =
    egressHosts.length === 0
      ? undefined
      : {
          allowHost: createEgressHostMatcher(egressHosts),
          // A host the user named may be on this machine or the private network.
          addresses: createAllowance({
            allowHosts: egressHosts.filter((host) => !host.startsWith("*.")),
          }),
        };

  return defineTool({
    name: "terminal",
    description: TERMINAL_DESCRIPTION,
    ...builtinInput("terminal"),
    access: "execute",
    // The registry waits for the command's own timeout; this only bounds a stuck kill.
    timeoutMs: (maxTimeout + 10) * 1000,
    async assess(input): Promise<ToolAssessment<Judgement>> {
      const decision = await options.commandPolicy.check(input.command, { cwd: input.cwd });
      const summary = `${input.command}  (in ${input.cwd})`;
      if (decision.outcome === "forbidden")
        return { verdict: "block", reason: decision.reason, summary };
      await options.sandbox.probe();
      const confined = options.sandbox.kind !== "none";
      const kinds = new Set((decision.escalations ?? []).map((escalation) => escalation.kind));
      const only = (kind: string) => kinds.size === 1 && kinds.has(kind);
      const networkGranted =
        options.network === true ||
        (egress !== undefined && options.egressUnattended === true && !workspace.exposure.exposed);
      const granted =
        confined &&
        ((only("git-write") && options.allowUnattendedGitWrites === true) ||
          (only("network") && networkGranted));
      // What execution holds to: the escalations this very command was judged with.
      const facts: Judgement = {
        outcome: decision.outcome,
        kinds,
        gitWrite: kinds.has("git-write"),
        network: kinds.has("network"),
      };
      if (decision.outcome === "direct")
        return { verdict: "allow", readOnly: true, reason: decision.reason, summary, facts };
      if (decision.outcome === "sandbox" && confined)
        return {
          verdict: "allow",
          reason: `${decision.reason.replace(/[.;]?\s*$/, "")}.`,
          summary,
          facts,
        };
      if (decision.outcome === "escalate" && granted)
        return {
          verdict: "allow",
          reason: `${decision.reason} The configuration allows it in the sandbox.`,
          summary,
          facts,
        };
      return {
        verdict: "confirm",
        requiresPerson: true,
        reason: `${escalationReason(decision, confined, options.sandbox.warning)}${kinds.has("network") ? networkNote(egressHosts, workspace.exposure.exposed) : ""}`,
        summary,
        facts,
      };
    },
    async execute(input, context) {
      const resolved = await guardPath(workspace, input.cwd);
      if (!resolved.ok) return resolved.failure;
      try {
        if (!(await lstat(resolved.path)).isDirectory())
          return toolFailure(`cwd '${input.cwd}' is not a directory.`);
      } catch {
        return toolFailure(`cwd '${input.cwd}' does not exist.`);
      }
      const timeoutSeconds = Math.min(input.timeout_seconds ?? defaultTimeout, maxTimeout);
      // Without a judgement (called outside a registry) nothing was granted: no git writes, no egress.
      const judgement = context.assessment?.facts;
      const byPerson = context.approvedByPerson === true;
      const writableGit =
        judgement?.gitWrite === true && (byPerson || options.allowUnattendedGitWrites === true);
      const network = options.network === true;
      // Network that was asked for and granted goes through the egress proxy only.
      const egressed =
        !network &&
        egress !== undefined &&
        judgement?.network === true &&
        (byPerson || (options.egressUnattended === true && !workspace.exposure.exposed));
      // The text was parsed and judged by the command policy before it gets here.
      const run = await options.sandbox.prepare(
        ["/bin/bash", "--noprofile", "--norc", "-c", input.command],
        {
          workspace: workspace.root,
          cwd: resolved.path,
          readOnlyPaths: [
            ...(await protectedEntries(workspace, writableGit)),
            ...(options.readOnlyPaths ?? []),
          ],
          network,
          ...(egressed ? { egress } : {}),
          writableGit,
          judge: (relative, change, judgeContext) =>
            judgeSandboxChange(workspace, relative, judgeContext.writableGit, change),
        },
      );
      if (options.sandbox.kind === "none" && options.sandbox.warning && !warned) {
        warned = true;
        options.onSandboxWarning?.(options.sandbox.warning);
      }
      const startedAt = performance.now();
      const subprocess = collectProcess(run.file, run.args, {
        cwd: resolved.path,
        env: { ...sanitizedEnvironment(workspace.root), ...run.env },
        // stdin ignored, stdout and stderr piped, then the sandbox's descriptors.
        stdio: run.stdio,
        detached: true,
        maxBuffer: { stdout: maxStdout, stderr: maxStderr },
      });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(subprocess.pid);
      }, timeoutSeconds * 1000);
      const onAbort = () => killGroup(subprocess.pid);
      context.signal.addEventListener("abort", onAbort, { once: true });
      let result;
      try {
        result = await subprocess.result;
      } finally {
        clearTimeout(timer);
        context.signal.removeEventListener("abort", onAbort);
        // Background jobs the command left behind die with it.
        killGroup(subprocess.pid);
      }
      // Only now do the command's file changes reach the workspace, each judged again.
      // Serialised with the file tools' writes and other commands' applies (parallel subagents).
      const outcome = await withWorkspaceLock(workspace, () => run.finish());
      const refusedHosts = run.egress?.refused ?? [];
      // What a command printed may hold a secret when it ran unconfined (the sandbox masks
      // secrets) or a person let it read one.
      const unconfined = options.sandbox.kind === "none" && judgement?.outcome !== "direct";
      const reads = ["secret", "outside", "unanalysed"].some((kind) => judgement?.kinds.has(kind));
      if (judgement === undefined || unconfined || reads) {
        workspace.exposure.record(`ran \`${input.command.slice(0, 80)}\``);
      }
      const durationMs = Math.round(performance.now() - startedAt);
      const exitCode =
        timedOut || result.cut !== undefined || context.signal.aborted
          ? null
          : (result.exitCode ?? null);
      options.auditLog?.record({
        kind: "command",
        workingDirectory: resolved.path,
        command: input.command,
        exitCode,
        durationMs,
        sandboxed: options.sandbox.kind !== "none",
      });
      // What a command prints is content like a file's: a secret in it is hidden from the
      // model and counts as exposure, however the command came to print it.
      const content = createContentScreen(
        workspace.exposure,
        `the output of \`${input.command.slice(0, 80)}\``,
      );
      const stdout = content.screen(result.stdout);
      const stderr = content.screen(result.stderr);
      const stdoutCut = result.cut === "stdout";
      const stderrCut = result.cut === "stderr";
      const body =
        section("stdout", stdout, stdoutCut, maxStdout) +
        section("stderr", stderr, stderrCut, maxStderr) +
        describeSandboxOutcome(outcome) +
        describeSandboxReport(workspace, outcome) +
        (refusedHosts.length === 0
          ? ""
          : `--- network refused by the egress proxy ---\n${refusedHosts
              .map((refusal) => `- ${refusal.host}:${String(refusal.port)}: ${refusal.reason}`)
              .join("\n")}\n`);
      const created = sandboxReport(workspace, outcome);
      const metadata = {
        // Hidden paths and executables the command created: named in the output, counted here.
        ...(created.length > 0 ? { reportedChanges: created.length } : {}),
        exitCode: exitCode ?? -1,
        durationMs,
        sandboxed: options.sandbox.kind !== "none",
      };
      if (timedOut) {
        return content.finish(
          toolFailure(
            `The command was stopped after ${timeoutSeconds} s, with everything it started.\n${body}`,
            metadata,
          ),
        );
      }
      if (context.signal.aborted)
        return content.finish(toolFailure(`The command was cancelled.\n${body}`, metadata));
      if (result.spawnError) {
        return content.finish(
          toolFailure(`The command could not be started: ${result.spawnError.message}`, metadata),
        );
      }
      if (result.cut !== undefined) {
        return content.finish(
          toolFailure(`The command produced too much output and was stopped.\n${body}`, metadata),
        );
      }
      if (exitCode !== 0)
        return content.finish(
          toolFailure(`The command exited with code ${String(exitCode)}.\n${body}`, metadata),
        );
      return content.finish(toolSuccess(`exit code 0\n${body}`, metadata));
    },
  });
}
