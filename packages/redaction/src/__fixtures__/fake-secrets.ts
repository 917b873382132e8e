/**
 * A corpus of FAKE secrets in real formats: the right prefixes, lengths and alphabets,
 * random bodies. Nothing here was ever a credential. Values are built at run time from a
 * seeded generator, so the repository holds no literal that a secret scanner would flag,
 * and every run sees the same values.
 */
export interface FakeSecret {
  /** What it is, for test names. */
  readonly name: string;
  /** The text the secret appears in, as a user, a tool or a provider would write it. */
  readonly text: string;
  /** Parts that must not survive redaction (the random body, at least 8 characters). */
  readonly secrets: readonly string[];
  /** Text that must survive redaction (the key name, the header), when there is one. */
  readonly kept?: readonly string[];
}

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = "0123456789abcdef";
const BASE32 = `${UPPER}234567`;
const BASE64 = `${ALNUM}+/`;
const BASE64URL = `${ALNUM}-_`;

/** A small deterministic generator (mulberry32). */
function createRandom(seed: number): (alphabet: string, length: number) => string {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  return (alphabet, length) => {
    let result = "";
    for (let index = 0; index < length; index += 1)
      result += alphabet[Math.floor(next() * alphabet.length)];
    return result;
  };
}

function base64url(text: string): string {
  return Buffer.from(text).toString("base64url");
}

function pemBody(random: (alphabet: string, length: number) => string, lines: number): string {
  const body: string[] = [];
  for (let line = 0; line < lines; line += 1) body.push(random(BASE64, 64));
  body.push(`${random(BASE64, 40)}==`);
  return body.join("\n");
}

/** Every fake secret, seeded with `seed` (default 1). */
export function fakeSecrets(seed = 1): FakeSecret[] {
  const random = createRandom(seed);
  const word = (length = 16): string =>
    random(LOWER, 4) + random(ALNUM, length - 8) + random(DIGITS, 4);
  const corpus: FakeSecret[] = [];
  const add = (name: string, text: string, secrets: string[], kept?: string[]): void => {
    corpus.push({ name, text, secrets, ...(kept && { kept }) });
  };

  // JSON keys, also with escaped quotes (a JSON document inside a JSON string).
  for (const key of ["password", "api_key", "client_secret", "access_token", "refresh_token"]) {
    const value = word(20);
    add(
      `JSON "${key}"`,
      `{"user": "ada", "${key}": "${value}", "retries": 3}`,
      [value],
      [`"${key}": "[REDACTED]"`],
    );
  }
  {
    const value = word(18);
    add(
      "JSON inside a JSON string",
      `{"body": "{\\"password\\":\\"${value}\\",\\"user\\":\\"ada\\"}"}`,
      [value],
      [`\\"password\\":\\"[REDACTED]\\"`],
    );
  }
  {
    const pin = random(DIGITS, 12);
    add("JSON number password", `{"password": ${pin}}`, [pin], [`"password": [REDACTED]`]);
  }

  // Private key blocks.
  for (const kind of [
    "RSA PRIVATE KEY",
    "PRIVATE KEY",
    "EC PRIVATE KEY",
    "ENCRYPTED PRIVATE KEY",
  ]) {
    const body = pemBody(random, 12);
    add(
      `PEM ${kind}`,
      `key file:\n-----BEGIN ${kind}-----\n${body}\n-----END ${kind}-----\ndone`,
      body.split("\n"),
      [`-----BEGIN ${kind}-----`, "done"],
    );
  }
  {
    const body = pemBody(random, 6);
    add(
      "OpenSSH private key",
      `$ cat ~/.ssh/id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n-----END OPENSSH PRIVATE KEY-----\n`,
      body.split("\n"),
      ["-----END OPENSSH PRIVATE KEY-----"],
    );
  }
  {
    const body = pemBody(random, 8);
    add(
      "PGP private key block",
      `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${body}\n-----END PGP PRIVATE KEY BLOCK-----`,
      body.split("\n"),
    );
  }
  {
    const body = pemBody(random, 10);
    add(
      "service account JSON with an escaped PEM key",
      `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n${body.split("\n").join("\\n")}\\n-----END PRIVATE KEY-----\\n", "client_email": "bot@example.iam.gserviceaccount.com"}`,
      body.split("\n"),
      ["client_email"],
    );
  }
  {
    const body = pemBody(random, 4);
    add(
      "truncated private key (no closing line)",
      `head -c 400 id_rsa:\n-----BEGIN RSA PRIVATE KEY-----\n${body}`,
      body.split("\n"),
    );
  }

  // Vendor tokens.
  const stripe = `sk_live_${random(ALNUM, 24)}`;
  add("Stripe secret key", `stripe.api_key = "${stripe}"`, [stripe.slice(8)]);
  const restricted = `rk_live_${random(ALNUM, 24)}`;
  add("Stripe restricted key", `Stripe(${restricted}) failed`, [restricted.slice(8)]);
  const gitlab = `glpat-${random(`${ALNUM}_-`, 20)}`;
  add("GitLab personal access token", `git clone https://oauth2:${gitlab}@gitlab.example/x.git`, [
    gitlab.slice(6),
  ]);
  const npm = `npm_${random(ALNUM, 36)}`;
  add(
    "npm token",
    `//registry.example.org/:_authToken=${npm}`,
    [npm.slice(4)],
    ["//registry.example.org/:_authToken="],
  );
  const huggingFace = `hf_${random(UPPER + LOWER, 34)}`;
  add("Hugging Face token", `HF token is ${huggingFace}.`, [huggingFace.slice(3)]);
  {
    const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
    const payload = base64url(
      JSON.stringify({ sub: random(DIGITS, 10), name: "Ada", iat: 1700000000 }),
    );
    const signature = random(BASE64URL, 43);
    add("JWT", `Cookie: session=${header}.${payload}.${signature}; Path=/`, [payload, signature]);
    add("JWT in prose", `the id token ${header}.${payload}.${signature} expired`, [
      payload,
      signature,
    ]);
  }
  {
    const key = `${random(BASE64, 86)}==`;
    add(
      "Azure storage connection string",
      `DefaultEndpointsProtocol=https;AccountName=devstore;AccountKey=${key};EndpointSuffix=core.windows.net`,
      [key.slice(0, 40), key.slice(40)],
      ["AccountKey=[REDACTED]", "EndpointSuffix=core.windows.net"],
    );
  }
  {
    const path = `T${random(UPPER + DIGITS, 8)}/B${random(UPPER + DIGITS, 10)}/${random(ALNUM, 24)}`;
    add("Slack webhook", `POST https://hooks.slack.com/services/${path} -> 200`, [path.slice(-24)]);
  }
  const slack = `xoxb-${random(DIGITS, 12)}-${random(DIGITS, 13)}-${random(ALNUM, 24)}`;
  add("Slack bot token", `SLACK token: ${slack}`, [slack.slice(5)]);
  const akia = `AKIA${random(BASE32, 16)}`;
  const asia = `ASIA${random(BASE32, 16)}`;
  add("AWS access key id", `aws configure set aws_access_key_id ${akia}`, [akia]);
  add("AWS temporary access key id", `{"AccessKeyId": "${asia}", "Expiration": "soon"}`, [asia]);
  const awsSecret = random(BASE64, 40);
  add(
    "AWS secret access key (ini)",
    `[default]\naws_secret_access_key = ${awsSecret}\nregion = eu-west-1`,
    [awsSecret],
    ["region = eu-west-1"],
  );
  const awsSecret2 = random(BASE64, 40);
  add("AWS secret access key (JSON)", `{"SecretAccessKey": "${awsSecret2}"}`, [awsSecret2]);
  const awsSession = random(BASE64, 120);
  add("AWS session token (env)", `AWS_SESSION_TOKEN=${awsSession}`, [
    awsSession.slice(0, 60),
    awsSession.slice(60),
  ]);

  // URL-encoded values.
  const encodedPassword = `${word(10)}%2B${word(10)}`;
  add(
    "URL-encoded password=",
    `POST /login body=user%3Dada%26password%3D${encodedPassword}`,
    encodedPassword.split("%2B"),
  );
  const encodedToken = `${word(8)}%2B${word(8)}%2F${word(8)}`;
  add(
    "URL-encoded token value",
    `GET /api?token=${encodedToken}&page=2`,
    encodedToken.split(/%2[BF]/),
    ["&page=2"],
  );
  const encodedJson = word(14);
  add("URL-encoded JSON", `q=%7B%22password%22%3A%22${encodedJson}%22%7D`, [encodedJson]);

  // The usual.
  for (const prefix of ["ghp", "gho", "ghu", "ghs", "ghr"]) {
    const token = `${prefix}_${random(ALNUM, 36)}`;
    add(`GitHub ${prefix}_ token`, `remote: ${token}`, [token.slice(4)]);
  }
  const finePat = `github_pat_${random(ALNUM, 22)}_${random(ALNUM, 59)}`;
  add("GitHub fine-grained token", `GH_TOKEN=${finePat}`, [
    finePat.slice(11, 33),
    finePat.slice(34),
  ]);
  const openai = `sk-proj-${random(`${ALNUM}_-`, 74)}T3BlbkFJ${random(`${ALNUM}_-`, 74)}`;
  add("OpenAI project key", `openai.api_key = '${openai}'`, [
    openai.slice(8, 60),
    openai.slice(-60),
  ]);
  const openaiLegacy = `sk-${random(ALNUM, 20)}T3BlbkFJ${random(ALNUM, 20)}`;
  add("OpenAI legacy key", `key ${openaiLegacy} leaked`, [openaiLegacy.slice(3, 23)]);
  const anthropic = `sk-ant-api03-${random(`${ALNUM}_-`, 93)}AA`;
  add("Anthropic key", `x-api-key: ${anthropic}`, [anthropic.slice(13, 60), anthropic.slice(60)]);
  const google = `AIza${random(`${ALNUM}_-`, 35)}`;
  add("Google API key", `https://maps.example/api?key=${google}&q=x`, [google.slice(4)]);
  const bearer = random(`${ALNUM}._-`, 40);
  add(
    "Bearer header",
    `curl -H "Authorization: Bearer ${bearer}" https://api.example`,
    [bearer],
    ["Authorization: Bearer [REDACTED]"],
  );
  const basic = Buffer.from(`ada:${word(14)}`).toString("base64");
  add(
    "Basic header",
    `Authorization: Basic ${basic}`,
    [basic],
    ["Authorization: Basic [REDACTED]"],
  );
  const urlPassword = word(16);
  add(
    "credentials in an https URL",
    `git remote add origin https://ada:${urlPassword}@git.example/x.git`,
    [urlPassword],
    ["https://ada:[REDACTED]@git.example/x.git"],
  );
  const databasePassword = `${word(10)}@${word(8)}`;
  add(
    "credentials in a database URL",
    `DATABASE_URL=postgres://app:${databasePassword}@db:5432/app`,
    databasePassword.split("@"),
  );
  const curlPassword = word(12);
  add("curl -u", `curl -u ada:${curlPassword} https://api.example`, [curlPassword]);
  const flagPassword = word(14);
  add(
    "--password flag",
    `mysql --user=root --password ${flagPassword} db`,
    [flagPassword],
    [" db"],
  );
  const envLines = [word(18), word(22), word(16), word(20)];
  add(
    ".env lines",
    `DATABASE_PASSWORD=${envLines[0]}\nSECRET_KEY=${envLines[1]}\nAPI_TOKEN="${envLines[2]}"\nexport GITHUB_TOKEN=${envLines[3]}\nDEBUG=true`,
    envLines,
    ["SECRET_KEY=[REDACTED]", 'API_TOKEN="[REDACTED]"', "DEBUG=true"],
  );
  const shortPassword = `${random(LOWER, 5)}${random(DIGITS, 3)}`;
  add(
    "low-entropy password in YAML",
    `database:\n  user: app\n  password: ${shortPassword}\n`,
    [shortPassword],
    ["user: app"],
  );
  const xmlPassword = word(12);
  add("XML element", `<datasource><password>${xmlPassword}</password></datasource>`, [xmlPassword]);
  const copilot = `tid=${random(HEX, 32)};exp=1700000000;sku=copilot;8kp=1:${random(HEX, 64)}`;
  add("Copilot token", `Authorization: ${copilot}`, [copilot.slice(4, 36), copilot.slice(-64)]);
  const escapedEnv = [word(16), `AKIA${random(BASE32, 16)}`];
  add(
    ".env file inside a JSON string",
    JSON.stringify({
      path: ".env",
      content: `DEBUG=1\nDB_PASSWORD=${escapedEnv[0]}\nKEY_ID=${escapedEnv[1]}\n`,
    }),
    escapedEnv,
    ['"path":".env"'],
  );
  const phpSecret = word(20);
  add("code literal", `$config = ['secret' => '${phpSecret}'];`, [phpSecret]);
  return corpus;
}

/**
 * Ordinary text that must come through unchanged: code, prose, hashes, identifiers,
 * base64 of non-secrets, paths, and code that handles secrets without holding one.
 */
export const ORDINARY_TEXTS: readonly string[] = [
  "grep -rn token src/ && ls -la",
  "The tokenizer splits the input into tokens; max_tokens bounds the answer.",
  'const token = await getToken(); const password = options.password; if (token === "") return;',
  "interface Credentials { readonly password: string; readonly apiKey?: string }",
  "commit 3f2a9c1e0b7d4a6f8e2c1b0a9d8e7f6a5b4c3d2e\nAuthor: Ada Lovelace <ada@example.com>",
  "request id 123e4567-e89b-12d3-a456-426614174000 took 35 ms",
  "The config is base64: eyJuYW1lIjoiYWRhIn0= which decodes to a name.",
  "SGVsbG8sIHdvcmxkIQ== is the base64 of Hello, world!",
  "/home/ada/projects/xzatoma/packages/safety/src/redaction/redactor.ts:42:7",
  "C:\\Users\\ada\\AppData\\Local\\xzatoma\\history.db",
  "see https://github.com/xzatoma/xzatoma/blob/main/README.md#quick-start",
  "export PATH=$HOME/.local/bin:$PATH\nexport PWD=/home/ada",
  'password: ${{ secrets.DB_PASSWORD }}\ntoken: "$GITHUB_TOKEN"\napi_key: ${API_KEY}',
  "headers: { Authorization: `Bearer ${token}` }",
  "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  "npm install @xzatoma/safety@0.1.0 --save-exact",
  "The bearer of this letter is a friend; basic arithmetic is enough.",
  '{"name": "@xzatoma/cli", "version": "0.1.0", "max_tokens": 4096, "token_type": "Bearer"}',
  "password_hash = bcrypt(password) # never store the password itself",
  "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n-----END CERTIFICATE-----",
];
