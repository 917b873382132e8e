import type { Tool } from "@xzatoma/core";
import { createSandbox, type AuditLog } from "@xzatoma/safety";
import { createStandardTools, type StandardTools, type WorkspaceContext } from "@xzatoma/tools";
import type { RuntimeConfig } from "../config/config-values.js";
import type { RuntimeIO } from "../runtime-io.js";
import { bwrapPathOf } from "../sandbox-binary.js";
import { loadConfiguredToolPackages } from "../tool-packages.js";
import type { AgentRuntimeOptions } from "./runtime-options.js";

/** A runtime's own tools: the built-in ones (with their fetcher) and every tool added to them. */
export interface RuntimeTools {
  readonly standard: StandardTools;
  /** The built-in tools, the caller's extra tools and the configured tool packages' tools. */
  readonly tools: Tool[];
}

/**
 * Builds the tools of a runtime: the sandbox (the template's, or one made and checked here,
 * with its warning), the built-in tools on the workspace, the caller's `extraTools`, and the
 * tools of the packages `agent.tools.packages` names. The packages are resolved from the
 * configuration's directory and the installation, never from the workspace: a package there
 * is the model's (or a clone's) code.
 */
export async function buildRuntimeTools(
  config: RuntimeConfig,
  io: RuntimeIO,
  options: Pick<AgentRuntimeOptions, "env" | "template" | "extraTools" | "configPath">,
  workspace: WorkspaceContext,
  auditLog: AuditLog,
): Promise<RuntimeTools> {
  const env = options.env ?? process.env;
  const sandbox =
    options.template?.sandbox ??
    createSandbox({ disabled: !config.agent.terminal.sandbox, env, ...bwrapPathOf(env) });
  // A template's warning was given once, when the template was read.
  if (sandbox.warning && !options.template) io.warn(sandbox.warning);
  const { tools, terminal, fetch } = config.agent;
  const standard = createStandardTools(
    workspace,
    { tools, terminal, fetch },
    {
      auditLog,
      sandbox,
      warn: (message) => io.warn(message),
      warnedAtStart: sandbox.warning !== undefined,
    },
  );
  const packaged = await loadConfiguredToolPackages(
    tools.packages,
    workspace.root,
    options.configPath,
  );
  return { standard, tools: [...standard.tools, ...(options.extraTools ?? []), ...packaged] };
}
