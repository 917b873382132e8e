// Which bubblewrap the sandbox uses. Normally the sandbox looks in /usr/bin, /usr/local/bin,
// then PATH; XZATOMA_BWRAP names one binary instead (a build of bubblewrap kept elsewhere,
// or a path where none is, to see how XZatoma behaves without a sandbox). Fail closed: a
// path with no bubblewrap means no sandbox, and without one only provably read-only
// commands run without a person's yes.

/** The environment variable that names the bubblewrap binary the sandbox uses. */
export const BWRAP_VARIABLE = "XZATOMA_BWRAP";

/**
 * The sandbox's `bwrapPath` from the environment: `{ bwrapPath }` when `XZATOMA_BWRAP` is
 * set and not blank, else `{}` (the default search). Spread it into `createSandbox`'s
 * options; a relative or missing path gives a sandbox of kind `none` with a warning.
 *
 * @example
 * createSandbox({ disabled: !config.agent.terminal.sandbox, env, ...bwrapPathOf(env) });
 */
export function bwrapPathOf(env: Readonly<Record<string, string | undefined>>): {
  readonly bwrapPath?: string;
} {
  const value = env[BWRAP_VARIABLE]?.trim();
  return value ? { bwrapPath: value } : {};
}
