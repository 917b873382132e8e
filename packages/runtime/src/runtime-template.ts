import os from "node:os";
import { deepFreeze } from "@xzatoma/core";
import { createSandbox, type Sandbox } from "@xzatoma/safety";
import { XzatomaError } from "@xzatoma/errors";
import type { RuntimeConfig } from "./config/config-schema.js";
import { discoverCommands, type CommandDiscovery } from "./custom-commands/discover-commands.js";
import { loadProjectInstructions, type ProjectInstructions } from "./project-instructions.js";
import type { RuntimeIO } from "./runtime-io.js";
import { bwrapPathOf } from "./sandbox-binary.js";
import { loadSessionSkills, type SessionSkills } from "./skills/session-skills.js";

/**
 * What every agent runtime of one service builds the same way and nobody changes afterwards:
 * the sandbox (which tools it uses and what its one-time start-up check found), the project
 * instructions (`AGENTS.md`), the skills and custom commands offered, each read once when the
 * service starts. A service that builds a runtime per unit of work (the watcher, one per
 * event) passes it to `createAgentRuntime` as `template`; everything with state (the
 * conversation, tools, workspace guard, approvals, quota, history recorder) is still built
 * for each runtime. See docs/explanation/watcher-delivery.md, "A runtime per event, built from
 * a template".
 */
export interface RuntimeTemplate {
  /** The workspace root the template was read from; a runtime for another one refuses it. */
  readonly workspace: string;
  readonly sandbox: Sandbox;
  readonly instructions: ProjectInstructions | undefined;
  /** Undefined when skills and custom commands are off (`skills: false`). */
  readonly skills: SessionSkills | undefined;
  readonly commands: CommandDiscovery | undefined;
}

/** What {@link prepareRuntimeTemplate} needs. */
export interface RuntimeTemplateOptions {
  /** The workspace root, as the runtimes will be given it. */
  readonly workspace: string;
  readonly env?: NodeJS.ProcessEnv;
  /** As `AgentRuntimeOptions.skills`. */
  readonly skills?: false | { readonly homeDir?: string };
}

/**
 * Reads the immutable, per-service parts of an agent runtime once. The warnings their
 * reading gives (the sandbox is off, a skill is ignored or not trusted) are given here, once,
 * instead of by every runtime. The result is frozen: a runtime reads it and cannot change it.
 *
 * @example
 * const template = await prepareRuntimeTemplate(config, io, { workspace });
 * const runtime = await createAgentRuntime(config, io, { workspace, modes, template });
 */
export async function prepareRuntimeTemplate(
  config: RuntimeConfig,
  io: Pick<RuntimeIO, "warn">,
  options: RuntimeTemplateOptions,
): Promise<RuntimeTemplate> {
  const env = options.env ?? process.env;
  const dataDir = config.persistence.data_dir;
  const sandbox = createSandbox({
    disabled: !config.agent.terminal.sandbox,
    env,
    ...bwrapPathOf(env),
  });
  if (sandbox.warning) io.warn(sandbox.warning);
  const instructions = await loadProjectInstructions(options.workspace);
  const roots =
    options.skills === false
      ? undefined
      : { workspace: options.workspace, homeDir: options.skills?.homeDir ?? os.homedir(), dataDir };
  const skills = roots ? loadSessionSkills(roots) : undefined;
  for (const problem of skills?.problems ?? []) {
    io.warn(`skill ignored: ${problem.file}: ${problem.field} ${problem.message}`);
  }
  for (const skill of skills?.untrusted ?? []) {
    io.warn(
      `project skill '${skill.name}' is not offered: no person has trusted this content of ${skill.file}`,
    );
  }
  const commands = roots ? discoverCommands(roots) : undefined;
  for (const problem of commands?.problems ?? []) {
    io.warn(`command ignored: ${problem.file}: ${problem.field} ${problem.message}`);
  }
  return Object.freeze({
    workspace: options.workspace,
    sandbox,
    instructions: instructions ? Object.freeze(instructions) : undefined,
    skills: skills ? deepFreeze(skills) : undefined,
    commands: commands ? deepFreeze(commands) : undefined,
  });
}

/** Refuses a template read from another workspace than the runtime's (fail closed). */
export function checkTemplateWorkspace(template: RuntimeTemplate, workspace: string): void {
  if (template.workspace !== workspace) {
    throw new XzatomaError(
      "INVALID_ARGUMENT",
      `The runtime template was read from the workspace '${template.workspace}', not '${workspace}': prepare one for this workspace.`,
      { fields: { workspace } },
    );
  }
}
