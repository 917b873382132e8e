/**
 * Remembers whether secrets may have reached the model during a run: a secret-looking
 * file was read, a hard-linked file was read, or a command that needed a yes ran (it may
 * have printed anything). Once exposed, sending data to a host the user has not allowed
 * needs a person's explicit yes: a secret never leaves the machine on the model's word.
 * One tracker per session; it never resets, because the model does not forget.
 */
export interface SecretExposure {
  /** Whether anything secret may have been read so far. */
  readonly exposed: boolean;
  /** What was read, oldest first (at most 20 entries), for the reason shown to a person. */
  readonly reasons: readonly string[];
  /** Records that `what` may have exposed a secret to the model. */
  record(what: string): void;
}

const MAX_REASONS = 20;

/**
 * Creates an empty tracker.
 *
 * @example
 * const exposure = createSecretExposure();
 * exposure.record("read .env");
 * exposure.exposed; // true
 */
export function createSecretExposure(): SecretExposure {
  const reasons: string[] = [];
  let exposed = false;
  return {
    get exposed() {
      return exposed;
    },
    get reasons() {
      return reasons;
    },
    record(what) {
      exposed = true;
      if (reasons.length < MAX_REASONS && !reasons.includes(what)) reasons.push(what);
    },
  };
}

/**
 * The reason a request to a host the user has not allowed needs a person's yes, or
 * undefined when nothing secret was read. `trustedHost` is the URL guard's verdict that
 * the host is one of the user's own.
 */
export function exfiltrationConcern(
  exposure: SecretExposure,
  target: string,
  trustedHost: boolean,
): string | undefined {
  if (!exposure.exposed || trustedHost) return undefined;
  return `this run has read something that may hold secrets (${exposure.reasons.slice(0, 3).join("; ")}), and ${target} is not one of the user's allowed hosts, so sending a request there could carry a secret out`;
}
