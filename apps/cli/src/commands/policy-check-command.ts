import path from "node:path";
import {
  APPROVAL_POLICIES,
  approvalPolicyFromLegacy,
  createCommandPolicy,
  createSandbox,
  decideApproval,
  DEFAULT_ALLOWLIST,
  toTerminalSafe,
  toTerminalSafeJson,
  type ApprovalPolicy,
  type CommandDecision,
} from "@xzatoma/safety";
import { bwrapPathOf } from "@xzatoma/runtime";
import { createTerminalTool, createWorkspaceContext } from "@xzatoma/tools";
import type { CommandOptionSource } from "../config/flag-mapping.js";
import { ExitCode } from "../exit-codes.js";
import { loadUserConfig } from "./load-user-config.js";
import { resolveWorkspace } from "../session/prepare-session.js";

/** Options of `xzatoma policy check-command`. */
export interface CheckCommandOptions {
  readonly approval?: ApprovalPolicy;
  /** The old execution mode, mapped onto an approval policy with a notice. */
  readonly mode?: "interactive" | "restricted" | "full";
  readonly sandbox?: boolean;
  readonly workspace?: string;
  readonly json?: boolean;
  readonly config?: string;
}

const OUTCOME_WORDS: Readonly<Record<CommandDecision["outcome"], string>> = {
  direct: "runs directly (provably read-only)",
  sandbox: "runs in the sandbox",
  escalate: "needs a person (an escalation)",
  forbidden: "never runs (a forbidden rule)",
};

const DECISION_WORDS = {
  allow: "runs without asking",
  confirm: "asks the person",
  block: "refused",
} as const;

/**
 * `xzatoma policy check-command CMD`: the command's outcome (direct, sandbox, escalate,
 * forbidden) with its reasons, and what each approval policy makes of it, as the terminal
 * tool would judge it here (this machine's sandbox, the user's allowlist and deny list),
 * without running anything.
 */
export async function checkCommandCommand(
  command: string,
  options: CheckCommandOptions,
  source: CommandOptionSource,
): Promise<number> {
  // Its `--mode` is the old execution mode, not the chat mode `--mode` sets elsewhere.
  const { terminal } = (await loadUserConfig(options, source, ["mode", "sandbox"])).config.agent;
  const workspace = createWorkspaceContext({ root: resolveWorkspace(options.workspace) });
  const policy = await createCommandPolicy({
    pathGuard: workspace.pathGuard,
    allowlist: [...DEFAULT_ALLOWLIST, ...terminal.allowlist],
    denylist: terminal.custom_denylist,
  });
  const sandbox = createSandbox({
    disabled: options.sandbox === false || !terminal.sandbox,
    env: process.env,
    ...bwrapPathOf(process.env),
  });
  const tool = createTerminalTool(workspace, {
    commandPolicy: policy,
    sandbox,
    network: terminal.network,
    egressHosts: terminal.egress_hosts,
    egressUnattended: terminal.egress_unattended,
    allowUnattendedGitWrites: terminal.allow_unattended_git_writes,
  });
  const decision = await policy.check(command);
  const assessment = await tool.assess?.({ command, cwd: "." });
  if (assessment === undefined) throw new Error("the terminal tool has no assessment");
  const decisions = Object.fromEntries(
    APPROVAL_POLICIES.map((approvalPolicy) => [
      approvalPolicy,
      decideApproval(
        { chatMode: "write", approvalPolicy },
        { toolName: "terminal", access: "execute", ...assessment },
      ).decision,
    ]),
  ) as Record<ApprovalPolicy, "allow" | "confirm" | "block">;
  const chosen: ApprovalPolicy =
    options.approval ??
    (options.mode === undefined
      ? "never"
      : options.mode === "interactive"
        ? approvalPolicyFromLegacy({ executionMode: "interactive" })
        : "never");
  if (options.mode !== undefined && options.approval === undefined)
    process.stderr.write(
      `xzatoma: --mode is deprecated; it is now --approval ${chosen} (see docs/explanation/safety-model.md).\n`,
    );
  if (options.json) {
    process.stdout.write(
      `${toTerminalSafeJson({
        command,
        workspace: workspace.root,
        outcome: decision.outcome,
        reason: decision.reason,
        escalations: decision.escalations,
        programs: decision.programs,
        sandbox: sandbox.kind,
        approvalPolicy: chosen,
        decision: decisions[chosen],
        decisions,
      })}\n`,
    );
    return ExitCode.ok;
  }
  const lines = [`${decision.outcome}: ${OUTCOME_WORDS[decision.outcome]}`, `  ${decision.reason}`];
  for (const escalation of decision.escalations.slice(1)) lines.push(`  ${escalation.reason}`);
  if (sandbox.kind === "none" && decision.outcome !== "direct" && decision.outcome !== "forbidden")
    lines.push(`no sandbox here: ${sandbox.warning ?? "it is turned off"}`);
  for (const approvalPolicy of APPROVAL_POLICIES) {
    const marker = approvalPolicy === chosen ? "*" : " ";
    lines.push(
      `${marker} approval ${approvalPolicy.padEnd(13)} ${DECISION_WORDS[decisions[approvalPolicy]]}`,
    );
  }
  lines.push(`workspace: ${path.relative(process.cwd(), workspace.root) || "."}`);
  // The command, its reasons and the workspace's name are the user's text: escaped.
  process.stdout.write(`${toTerminalSafe(lines.join("\n"))}\n`);
  return ExitCode.ok;
}
