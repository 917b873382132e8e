import { openTrustStore, readProjectConfig } from "@xzatoma/runtime";
import type { CommandOptionSource } from "../config/flag-mapping.js";
import { ExitCode } from "../exit-codes.js";
import { toTerminalSafe } from "../render/terminal-safe.js";
import { resolveWorkspace } from "../session/prepare-session.js";
import { UsageError } from "../usage-error.js";
import { loadUserConfig } from "./load-user-config.js";

/**
 * `xzatoma config trust [-w DIR]`: trusts the project's `.xzatoma/config.yaml` as it is now,
 * so all its settings apply (but the data location) until the file changes.
 */
export async function configTrust(
  options: { config?: string; workspace?: string },
  command: CommandOptionSource,
): Promise<number> {
  const workspace = resolveWorkspace(options.workspace);
  const { config } = await loadUserConfig(options, command);
  const dataDir = config.persistence.data_dir;
  const project = readProjectConfig({ projectDir: workspace, dataDir });
  if (!project) {
    throw new UsageError(
      "No project configuration (.xzatoma/config.yaml) in this workspace or above it up to the repository root.",
    );
  }
  openTrustStore(dataDir).trust({ file: project.path, sha256: project.sha256 });
  process.stdout.write(
    `${toTerminalSafe(`Trusted the project configuration ${project.path} as it is now`)}; a change to the file makes it untrusted again.\n`,
  );
  return ExitCode.ok;
}
