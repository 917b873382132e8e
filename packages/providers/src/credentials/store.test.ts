import { describe, expect, it } from "vitest";
import {
  createCredentialStore,
  type CredentialStoreOptions,
  type KeyringBackend,
} from "./index.js";

const TOKEN = "ghp_XZATOMA_FAKE_TOKEN_0123456789abcdef";

/** An in-memory keyring, or one that fails every call like an unreachable Secret Service. */
function fakeKeyring(options: { broken?: (secret?: string) => Error } = {}) {
  const entries = new Map<string, string>();
  const calls: string[] = [];
  const backend: KeyringBackend = {
    async getPassword(account) {
      calls.push(`get ${account}`);
      if (options.broken) throw options.broken();
      return entries.get(account);
    },
    async setPassword(account, secret) {
      calls.push(`set ${account}`);
      if (options.broken) throw options.broken(secret);
      entries.set(account, secret);
    },
    async deletePassword(account) {
      calls.push(`delete ${account}`);
      if (options.broken) throw options.broken();
      return entries.delete(account);
    },
  };
  return { backend, entries, calls };
}

function store(options: CredentialStoreOptions & { keyring?: "auto" | "off" } = {}) {
  const warnings: string[] = [];
  const credentials = createCredentialStore({
    env: {},
    warn: (message) => warnings.push(message),
    ...options,
  });
  return { credentials, warnings };
}

describe("credential store", () => {
  it("reads environment variables first, in the documented order", async () => {
    const keyring = fakeKeyring();
    keyring.entries.set("copilot", "from-keyring");
    const env = { GITHUB_TOKEN: "gh", COPILOT_GITHUB_TOKEN: "copilot", OPENAI_API_KEY: "sk" };
    const { credentials } = store({ env, keyringBackend: keyring.backend });
    expect(await credentials.get("copilot")).toBe("copilot");
    expect(await credentials.describe("copilot")).toBe("env:COPILOT_GITHUB_TOKEN");
    expect(await credentials.describe("openai")).toBe("env:OPENAI_API_KEY");

    const { credentials: github } = store({
      env: { GITHUB_TOKEN: "gh", COPILOT_GITHUB_TOKEN: "" },
      keyringBackend: keyring.backend,
    });
    expect(await github.get("copilot")).toBe("gh");
    expect(await github.describe("copilot")).toBe("env:GITHUB_TOKEN");

    const { credentials: ollama } = store({
      env: { OLLAMA_API_KEY: "ol" },
      keyringBackend: keyring.backend,
    });
    expect(await ollama.describe("ollama")).toBe("env:OLLAMA_API_KEY");
    expect(await ollama.get("copilot")).toBe("from-keyring");
    // Other providers have no variables; names are not looked up on the prototype.
    expect(await ollama.describe("constructor")).toBe("none");
  });

  it("stores in the keyring under the provider's name and deletes from it", async () => {
    const keyring = fakeKeyring();
    const { credentials, warnings } = store({ keyringBackend: keyring.backend });
    expect(await credentials.describe("openai")).toBe("none");
    expect(await credentials.get("openai")).toBeUndefined();
    await expect(credentials.checkWritable("openai")).resolves.toBeUndefined();
    expect(await credentials.set("openai", TOKEN)).toBe("keyring");
    expect(keyring.entries.get("openai")).toBe(TOKEN);
    expect(await credentials.get("openai")).toBe(TOKEN);
    expect(await credentials.describe("openai")).toBe("keyring");
    expect(await credentials.delete("openai")).toBe(true);
    expect(await credentials.delete("openai")).toBe(false);
    expect(await credentials.describe("openai")).toBe("none");
    expect(warnings).toEqual([]);
  });

  it("refuses to store a credential it could not keep when the keyring is unreachable", async () => {
    const keyring = fakeKeyring({ broken: () => new Error("org.freedesktop.secrets not found") });
    const { credentials, warnings } = store({ keyringBackend: keyring.backend });
    const refused = await credentials.set("openai", TOKEN).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: "CREDENTIAL_STORE_UNAVAILABLE",
      message:
        "The system keyring is not available (org.freedesktop.secrets not found), so the openai credential was not stored. Set OPENAI_API_KEY in the environment instead.",
      fields: {
        provider: "openai",
        envVars: ["OPENAI_API_KEY"],
        reason: "org.freedesktop.secrets not found",
      },
    });
    await expect(credentials.set("copilot", "other-token")).rejects.toMatchObject({
      fields: { envVars: ["COPILOT_GITHUB_TOKEN", "GITHUB_TOKEN"] },
    });
    await expect(credentials.checkWritable("openai")).rejects.toMatchObject({
      code: "CREDENTIAL_STORE_UNAVAILABLE",
    });
    // Nothing was kept, and the keyring is not tried again after its first failure.
    expect(await credentials.get("openai")).toBeUndefined();
    expect(await credentials.describe("copilot")).toBe("none");
    expect(keyring.calls).toEqual(["set openai"]);
    expect(warnings).toEqual([]);
  });

  it("warns once when stored credentials cannot be read, and still reads the environment", async () => {
    const keyring = fakeKeyring({ broken: () => new Error("no D-Bus session") });
    const { credentials, warnings } = store({
      env: { OPENAI_API_KEY: "sk-env" },
      keyringBackend: keyring.backend,
    });
    expect(await credentials.get("openai")).toBe("sk-env");
    expect(keyring.calls).toEqual([]);
    expect(await credentials.get("copilot")).toBeUndefined();
    expect(await credentials.describe("ollama")).toBe("none");
    expect(warnings).toEqual([
      "The system keyring is not available (no D-Bus session); credentials stored in it cannot be read, only those in the environment.",
    ]);
  });

  it("keeps credentials in memory only, without warning, when the keyring is off", async () => {
    const keyring = fakeKeyring();
    const { credentials, warnings } = store({ keyring: "off", keyringBackend: keyring.backend });
    expect(await credentials.set("ollama", TOKEN)).toBe("memory");
    expect(await credentials.get("ollama")).toBe(TOKEN);
    expect(keyring.calls).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("never puts a secret into an error or a warning", async () => {
    // A keyring whose errors echo the secret they were given.
    const keyring = fakeKeyring({ broken: (secret) => new Error(`cannot store '${secret}'`) });
    const { credentials, warnings } = store({ keyringBackend: keyring.backend });
    const refused = await credentials.set("openai", TOKEN).catch((error: unknown) => error);
    expect((refused as Error).message).toContain("cannot store '[redacted]'");
    expect(JSON.stringify(refused)).not.toContain(TOKEN);

    const errors: unknown[] = [];
    for (const attempt of [
      () => credentials.set(TOKEN, "openai"), // arguments swapped
      () => credentials.get(TOKEN),
      () => credentials.describe(`${TOKEN} `),
      () => credentials.set("openai", "   "),
    ]) {
      await attempt().then(
        () => errors.push(new Error("expected a rejection")),
        (error: unknown) => errors.push(error),
      );
    }
    expect(errors).toHaveLength(4);
    for (const error of errors) {
      expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
      const text = `${(error as Error).message} ${JSON.stringify(error)} ${String((error as Error).stack)}`;
      expect(text).not.toContain(TOKEN);
    }
    expect(warnings.join("\n")).not.toContain(TOKEN);
  });
});
