import type { CommandPolicy, CommandPolicyOptions } from "./types.js";

/**
 * Creates the command policy: loads the bash grammar and a parser once (and checks the
 * forbidden rules against their examples), then decides each command's outcome: `direct`
 * only for plain words of read-only programs inside the workspace, joined by `|`, `&&`,
 * `||`, `;`; `forbidden` for a forbidden rule or the user's deny list; `escalate` for what
 * the sandbox withholds (network, places outside the workspace, secrets, protected paths,
 * `.git` writes) and whenever the analysis fails; `sandbox` for everything else.
 *
 * `check` takes the directory the command runs in (`{ cwd }`, relative to the root): relative
 * paths, `$PWD` and `~+` are judged from there, symlinks and `..` resolved as the kernel does.
 *
 * The analysis (most of this package's code) is loaded by the first call, not with the
 * package: a process that never judges a command does not load it.
 *
 * @example
 * const policy = await createCommandPolicy({ pathGuard: createPathGuard({ root }) });
 * await policy.check("ls -la src | wc -l");  // { outcome: "direct", … }
 * await policy.check("npm test");            // { outcome: "sandbox", … }
 * await policy.check("rm -rf ~/projects");   // { outcome: "escalate", escalations: [{ kind: "outside", … }] }
 * await policy.check("sudo rm x");           // { outcome: "forbidden", … }
 */
export async function createCommandPolicy(options: CommandPolicyOptions): Promise<CommandPolicy> {
  const { buildCommandPolicy } = await import("./command-policy.js");
  return buildCommandPolicy(options);
}
