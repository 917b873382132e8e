import path from "node:path";
import {
  createCommandPolicy,
  decideApproval,
  DEFAULT_ALLOWLIST,
  type ExecutionMode,
} from "@xzatoma/safety";
import { createWorkspaceContext } from "@xzatoma/tools";
import type { CommandOptionSource } from "../config/flag-mapping.js";
import { ExitCode } from "../exit-codes.js";
import { loadUserConfig } from "./load-user-config.js";
import { resolveWorkspace } from "../session/prepare-session.js";

/**
 * `xzatoma policy check-command CMD`: the command policy's verdict and reason, and what the
 * execution mode makes of it (as `terminal` in write mode would), without running anything.
 * The user's configured allowlist and denylist apply, as they do for the terminal tool.
 */
export async function checkCommandCommand(
  command: string,
  options: { mode?: ExecutionMode; workspace?: string; json?: boolean; config?: string },
  source: CommandOptionSource,
): Promise<number> {
  // Its `--mode` is the execution mode to judge for, not the chat mode `--mode` sets.
  const { terminal } = (await loadUserConfig(options, source, ["mode"])).config.agent;
  const workspace = createWorkspaceContext({ root: resolveWorkspace(options.workspace) });
  const policy = await createCommandPolicy({
    pathGuard: workspace.pathGuard,
    allowlist: [...DEFAULT_ALLOWLIST, ...terminal.allowlist],
    denylist: terminal.custom_denylist,
  });
  const decision = await policy.check(command);
  const mode = options.mode ?? "restricted";
  const outcome = decideApproval(
    { chatMode: "write", safetyMode: "safe", executionMode: mode },
    { toolName: "terminal", access: "execute", verdict: decision.verdict, reason: decision.reason },
  );
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ command, workspace: workspace.root, mode, verdict: decision.verdict, decision: outcome.decision, reason: decision.reason, programs: decision.programs })}\n`,
    );
  } else {
    process.stdout.write(`${decision.verdict}: ${decision.reason}\n`);
    if (outcome.decision !== decision.verdict) {
      process.stdout.write(
        `in ${mode} mode: ${outcome.decision}${outcome.decision === "block" ? " (no one to ask)" : ""}\n`,
      );
    }
    process.stdout.write(`workspace: ${path.relative(process.cwd(), workspace.root) || "."}\n`);
  }
  return ExitCode.ok;
}
