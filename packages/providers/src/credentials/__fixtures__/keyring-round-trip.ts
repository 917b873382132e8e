// Run by keyring.test.ts in a child process, usually inside
// tools/keyring/with-test-keyring.sh (a private D-Bus session with a throwaway
// gnome-keyring): stores, reads and deletes a credential with the real store and the real
// OS keyring, and prints one JSON line of findings, never the secret itself. Runs with
// Node's type stripping, hence the .ts import.
import { AsyncEntry } from "@napi-rs/keyring";
import { createCredentialStore } from "../store.ts";

const provider = `xzatoma-test-${process.pid}`;
const secret = `xz-fake-token-${Math.random().toString(36).slice(2)}`;
const warnings: string[] = [];
const options = { env: {}, warn: (message: string) => warnings.push(message) };
const store = createCredentialStore(options);

/** Reads the entry straight from the keyring: service "xzatoma", account = provider. */
async function direct(): Promise<string | null> {
  try {
    return await new AsyncEntry("xzatoma", provider, {
      linux: { store: "secret-service" },
    }).getPassword();
  } catch {
    return "unreachable";
  }
}

/** Where `set` stored the secret, or the code of the error it refused with. */
async function storeSecret(): Promise<string> {
  try {
    return await store.set(provider, secret);
  } catch (error) {
    return `refused: ${String((error as { code?: unknown }).code)}`;
  }
}

const report = {
  before: await store.describe(provider),
  storedIn: await storeSecret(),
  describe: await store.describe(provider),
  readBack: (await store.get(provider)) === secret,
  // A second store has no memory of the first: the secret must come from the keyring.
  freshStoreReads: (await createCredentialStore(options).get(provider)) === secret,
  inKeyring: await direct().then((value) => (value === secret ? "yes" : value)),
  deleted: await store.delete(provider),
  afterDelete: await store.describe(provider),
  gone: (await direct()) === null,
  warnings,
  leaked: warnings.some((warning) => warning.includes(secret)),
};
console.log(JSON.stringify(report));
