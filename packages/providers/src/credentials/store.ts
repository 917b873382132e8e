// Provider credentials: environment variables first, then the OS keyring, then memory.
// Kept free of TypeScript-only runtime syntax (enums, parameter properties) so the
// keyring round-trip fixture can run this file directly with Node's type stripping.
import type * as NapiKeyring from "@napi-rs/keyring";
import { describeError, InvalidArgumentError, XzatomaError } from "@xzatoma/core";

/** The keyring service every XZatoma credential is stored under; the account is the provider. */
export const KEYRING_SERVICE = "xzatoma";

/**
 * The environment variables read for each provider, first match wins. For Copilot (a
 * GitHub OAuth token), the specific `COPILOT_GITHUB_TOKEN` wins over the general-purpose
 * `GITHUB_TOKEN`.
 */
export const CREDENTIAL_ENV_VARS: Readonly<Record<string, readonly string[]>> = {
  copilot: ["COPILOT_GITHUB_TOKEN", "GITHUB_TOKEN"],
  openai: ["OPENAI_API_KEY"],
  ollama: ["OLLAMA_API_KEY"],
};

/**
 * Where a provider's credential comes from: `env:<NAME>` for an environment variable,
 * `keyring` for the OS keyring, `memory` for this process only, `none` when there is none.
 */
export type CredentialSource = `env:${string}` | "keyring" | "memory" | "none";

/** Provider credentials. No method ever puts a secret into an error or a warning. */
export interface CredentialStore {
  /** The credential of `provider`: from the environment, the keyring or memory, in that order. */
  get(provider: string): Promise<string | undefined>;
  /**
   * Stores the credential of `provider` in the OS keyring and resolves with `keyring`.
   * When no keyring is reachable it stores nothing and rejects with
   * `CREDENTIAL_STORE_UNAVAILABLE` (fields: `provider`, `envVars`, `reason`): a credential
   * that would vanish with the process is not stored. With `keyring: "off"` it is kept in
   * memory for this process and resolves with `memory`. An environment variable, if set,
   * still takes precedence on `get`.
   */
  set(provider: string, secret: string): Promise<"keyring" | "memory">;
  /**
   * Resolves when {@link set} could store a credential of `provider` (the keyring answers,
   * or the store keeps credentials in memory by choice); rejects with the error `set` would
   * give otherwise. For asking before a sign-in rather than after.
   */
  checkWritable(provider: string): Promise<void>;
  /** Removes the stored credential (keyring and memory); environment variables stay. */
  delete(provider: string): Promise<boolean>;
  /** Where the credential of `provider` comes from, without revealing it. */
  describe(provider: string): Promise<CredentialSource>;
}

/** The part of an OS keyring the store uses. Errors mean "the keyring is unreachable". */
export interface KeyringBackend {
  getPassword(account: string): Promise<string | undefined>;
  setPassword(account: string, secret: string): Promise<void>;
  deletePassword(account: string): Promise<boolean>;
}

/** Options of {@link createCredentialStore}. */
export interface CredentialStoreOptions {
  /** Environment to read credentials from. Default `process.env` (the live object). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** `auto` (default) uses the OS keyring when reachable; `off` keeps credentials in memory only. */
  readonly keyring?: "auto" | "off";
  /** Receives the one warning given when the keyring cannot be read. Default: none. */
  readonly warn?: (message: string) => void;
  /** Environment variables per provider, replacing the defaults of {@link CREDENTIAL_ENV_VARS} for the providers named. */
  readonly envVars?: Readonly<Record<string, readonly string[]>>;
  /** The keyring to use instead of the OS keyring (`@napi-rs/keyring`). */
  readonly keyringBackend?: KeyringBackend;
}

// Lowercase and short: tokens are long and mixed-case, so one passed as a provider name by
// mistake is refused instead of becoming a keyring account name.
const PROVIDER_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

function checkProvider(provider: string): void {
  if (typeof provider !== "string" || !PROVIDER_NAME.test(provider)) {
    // The name is not repeated: a secret passed in its place must not reach the message.
    throw new InvalidArgumentError(
      "A provider name is 1 to 32 lowercase letters, digits, '_' or '-', starting with a letter.",
    );
  }
}

/** Removes every occurrence of the given secrets from a message. */
function redact(message: string, secrets: Iterable<string>): string {
  let result = message;
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join("[redacted]");
  }
  return result;
}

/**
 * The OS keyring through `@napi-rs/keyring`, loaded on first use. On Linux entries are
 * pinned to the Secret Service (gnome-keyring, KWallet, KeePassXC): the kernel keyring,
 * the library's fallback, forgets everything at reboot and is blocked in most containers.
 */
export function createOsKeyring(service: string = KEYRING_SERVICE): KeyringBackend {
  let keyring: Promise<typeof NapiKeyring> | undefined;
  const entry = async (account: string) => {
    keyring ??= import("@napi-rs/keyring");
    const { AsyncEntry } = await keyring;
    return new AsyncEntry(
      service,
      account,
      process.platform === "linux" ? { linux: { store: "secret-service" } } : undefined,
    );
  };
  return {
    async getPassword(account) {
      return (await (await entry(account)).getPassword()) ?? undefined;
    },
    async setPassword(account, secret) {
      await (await entry(account)).setPassword(secret);
    },
    async deletePassword(account) {
      return (await entry(account)).deletePassword();
    },
  };
}

/**
 * Creates the credential store. Reading order: environment variables (see
 * {@link CREDENTIAL_ENV_VARS}), then the OS keyring (service `xzatoma`, account = provider
 * name), then memory (with `keyring: "off"`). When the keyring cannot be reached (no Secret
 * Service on D-Bus, a locked keychain, ...), reading warns once and finds nothing there,
 * and storing fails with `CREDENTIAL_STORE_UNAVAILABLE` naming the environment variables
 * to use instead.
 *
 * @example
 * const store = createCredentialStore({ warn: (message) => console.warn(message) });
 * await store.set("openai", apiKey);
 * console.log(await store.describe("openai")); // "keyring", or "env:OPENAI_API_KEY" when set
 */
export function createCredentialStore(options: CredentialStoreOptions = {}): CredentialStore {
  const env = options.env ?? process.env;
  const envVarsByProvider = { ...CREDENTIAL_ENV_VARS, ...options.envVars };
  const memory = new Map<string, string>();
  const known = new Set<string>();
  const warn = options.warn ?? (() => {});
  let keyring: KeyringBackend | undefined =
    options.keyring === "off" ? undefined : (options.keyringBackend ?? createOsKeyring());
  let warned = false;

  const fromEnv = (provider: string): { name: string; value: string } | undefined => {
    for (const name of Object.hasOwn(envVarsByProvider, provider)
      ? (envVarsByProvider[provider] ?? [])
      : []) {
      const value = env[name];
      if (value !== undefined && value !== "") return { name, value };
    }
    return undefined;
  };

  let keyringProblem: string | undefined;
  /** Stops using the keyring after its first failure; reading from it warns once. */
  const keyringFailed = (error: unknown, reading: boolean) => {
    keyring = undefined;
    keyringProblem ??= redact(describeError(error), known);
    if (warned || !reading) return;
    warned = true;
    warn(
      `The system keyring is not available (${keyringProblem}); credentials stored in it cannot be read, only those in the environment.`,
    );
  };

  /** The refusal of a credential that only the keyring, unreachable, could have kept. */
  const notStored = (provider: string): XzatomaError => {
    const envVars = Object.hasOwn(envVarsByProvider, provider)
      ? [...(envVarsByProvider[provider] ?? [])]
      : [];
    const reason = keyringProblem ?? "no keyring";
    const instead =
      envVars.length > 0 ? ` Set ${envVars.join(" or ")} in the environment instead.` : "";
    return new XzatomaError(
      "CREDENTIAL_STORE_UNAVAILABLE",
      `The system keyring is not available (${reason}), so the ${provider} credential was not stored.${instead}`,
      { fields: { provider, envVars, reason } },
    );
  };

  const fromKeyring = async (provider: string): Promise<string | undefined> => {
    const backend = keyring;
    if (!backend) return undefined;
    try {
      const secret = await backend.getPassword(provider);
      if (secret) known.add(secret);
      return secret === "" ? undefined : secret;
    } catch (error) {
      keyringFailed(error, true);
      return undefined;
    }
  };

  return {
    async get(provider) {
      checkProvider(provider);
      return fromEnv(provider)?.value ?? (await fromKeyring(provider)) ?? memory.get(provider);
    },

    async set(provider, secret) {
      checkProvider(provider);
      if (typeof secret !== "string" || secret.trim() === "") {
        throw new InvalidArgumentError(`The credential given for ${provider} is empty.`);
      }
      known.add(secret);
      if (options.keyring === "off") {
        memory.set(provider, secret);
        return "memory";
      }
      const backend = keyring;
      if (backend) {
        try {
          await backend.setPassword(provider, secret);
          memory.delete(provider);
          return "keyring";
        } catch (error) {
          keyringFailed(error, false);
        }
      }
      throw notStored(provider);
    },

    async checkWritable(provider) {
      checkProvider(provider);
      if (options.keyring === "off") return;
      const backend = keyring;
      if (backend) {
        try {
          await backend.getPassword(provider);
          return;
        } catch (error) {
          keyringFailed(error, false);
        }
      }
      throw notStored(provider);
    },

    async delete(provider) {
      checkProvider(provider);
      let deleted = memory.delete(provider);
      const backend = keyring;
      if (backend) {
        try {
          deleted = (await backend.deletePassword(provider)) || deleted;
        } catch (error) {
          keyringFailed(error, false);
        }
      }
      return deleted;
    },

    async describe(provider) {
      checkProvider(provider);
      const variable = fromEnv(provider);
      if (variable) return `env:${variable.name}`;
      if ((await fromKeyring(provider)) !== undefined) return "keyring";
      return memory.has(provider) ? "memory" : "none";
    },
  };
}
