import { homedir } from "node:os";
import { createInterface } from "node:readline/promises";
import { createCredentialStore, CREDENTIAL_ENV_VARS, startDeviceFlow } from "@xzatoma/providers";
import { loadConfig } from "@xzatoma/runtime";
import { ExitCode } from "../exit-codes.js";
import { toTerminalSafe, toTerminalSafeJson, toTerminalSafeLine } from "../render/terminal-safe.js";
import { UsageError } from "../usage-error.js";

const PROVIDERS = ["copilot", "openai", "ollama"] as const;
type Provider = (typeof PROVIDERS)[number];

function providersFrom(name: string | undefined): Provider[] {
  if (name === undefined) return [...PROVIDERS];
  if (!(PROVIDERS as readonly string[]).includes(name)) {
    throw new UsageError(`unknown provider '${name}'; choose one of ${PROVIDERS.join(", ")}.`);
  }
  return [name as Provider];
}

const warn = (message: string) => process.stderr.write(`xzatoma: ${toTerminalSafe(message)}\n`);

/** "not signed in", with the ways to sign in. */
function notSignedIn(provider: Provider): string {
  const variables = CREDENTIAL_ENV_VARS[provider] ?? [];
  return `not signed in (set ${variables.join(" or ")}, or run 'xzatoma auth login ${provider}')`;
}

/** `xzatoma auth status [provider]`: where each credential comes from, never the credential. */
export async function authStatus(
  provider: string | undefined,
  options: { json?: boolean },
): Promise<number> {
  const store = createCredentialStore({ warn });
  const rows = await Promise.all(
    providersFrom(provider).map(async (name) => ({
      provider: name,
      source: await store.describe(name),
    })),
  );
  if (options.json) process.stdout.write(`${toTerminalSafeJson(rows)}\n`);
  else
    for (const row of rows)
      process.stdout.write(
        `${row.provider}: ${toTerminalSafeLine(row.source === "none" ? notSignedIn(row.provider) : row.source)}\n`,
      );
  return ExitCode.ok;
}

/** `xzatoma auth logout [provider]`: removes the stored credential (environment variables stay). */
export async function authLogout(provider: string | undefined): Promise<number> {
  const store = createCredentialStore({ warn });
  for (const name of providersFrom(provider)) {
    const removed = await store.delete(name);
    process.stdout.write(`${name}: ${removed ? "signed out" : "nothing stored"}\n`);
  }
  return ExitCode.ok;
}

async function readSecret(prompt: string): Promise<string> {
  const rl = createInterface({
    input: process.stdin,
    output: process.stderr,
    terminal: Boolean(process.stdin.isTTY),
  });
  try {
    return (await rl.question(prompt)).trim();
  } finally {
    rl.close();
  }
}

/** `provider.copilot.client_id` of the configuration, if set. */
async function configuredClientId(): Promise<string | undefined> {
  const loaded = await loadConfig({ env: process.env, homeDir: homedir(), cwd: process.cwd() });
  return loaded.config.provider.copilot.client_id;
}

/**
 * `xzatoma auth login [provider]`: Copilot signs in with GitHub's device flow (the OAuth app
 * of `--client-id`, else `provider.copilot.client_id`, else XZatoma's); OpenAI and Ollama
 * read a key from standard input. The credential goes to the OS keyring. Without a
 * reachable keyring nothing is asked: the command fails (`CREDENTIAL_STORE_UNAVAILABLE`),
 * naming the environment variable to set instead.
 */
export async function authLogin(
  provider: string | undefined,
  options: { clientId?: string },
): Promise<number> {
  const name = provider ?? "copilot";
  providersFrom(name);
  const store = createCredentialStore({ warn });
  // Before the sign-in, not after it: a credential that cannot be kept is not asked for.
  await store.checkWritable(name);
  let secret: string;
  if (name === "copilot") {
    const clientId = options.clientId ?? (await configuredClientId());
    const flow = await startDeviceFlow(clientId ? { clientId } : {});
    process.stderr.write(
      `Open ${toTerminalSafeLine(flow.verificationUri)} and enter the code ${toTerminalSafeLine(flow.userCode)}\nWaiting for GitHub...\n`,
    );
    secret = (await flow.poll()).accessToken;
  } else {
    secret = await readSecret(
      `Paste the ${name === "openai" ? "OpenAI API key" : "Ollama API key"}: `,
    );
    if (secret === "") throw new UsageError("no key given; nothing was stored.");
  }
  await store.set(name, secret);
  process.stdout.write(`${toTerminalSafeLine(name)}: signed in (stored in the OS keyring)\n`);
  const source = await store.describe(name);
  if (source.startsWith("env:")) {
    warn(
      `${source.slice(4)} is set in the environment and is used instead of the stored credential while it is set.`,
    );
  }
  return ExitCode.ok;
}
