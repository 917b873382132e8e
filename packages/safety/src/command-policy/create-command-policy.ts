import type { CommandPolicy, CommandPolicyOptions } from "./types.js";

/**
 * Creates the command policy: loads the bash grammar and a parser once, then classifies
 * commands for restricted autonomous mode. `allow` only for one allowlisted program with
 * plain arguments inside the workspace; `block` for the denylist in every spelling the
 * analysis can see; `confirm` for everything else, and whenever the analysis fails.
 *
 * `check` takes the directory the command runs in (`{ cwd }`, relative to the root): relative
 * paths, `$PWD` and `~+` are judged from there, symlinks and `..` resolved as the kernel does.
 *
 * The analysis (most of this package's code) is loaded by the first call, not with the
 * package: a process that never judges a command does not load it.
 *
 * @example
 * const policy = await createCommandPolicy({ pathGuard: createPathGuard({ root }) });
 * await policy.check("ls -la src");   // { verdict: "allow", … }
 * await policy.check("r''m -rf /");   // { verdict: "block", … }
 * await policy.check("cat x/etc/passwd", { cwd: "sub" }); // "block" when sub/x -> /
 */
export async function createCommandPolicy(options: CommandPolicyOptions): Promise<CommandPolicy> {
  const { buildCommandPolicy } = await import("./command-policy.js");
  return buildCommandPolicy(options);
}
