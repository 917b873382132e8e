// Redaction throughput: `redactSecrets` of @xzatoma/safety over 1 MB inputs built to make
// a backtracking regex engine slow (every gitleaks keyword, dense, with and without
// separators; long runs of token alphabets; opening lines with no closing line; endless
// key=value chains), beside 1 MB of ordinary text and of text full of fake secrets.
// Reports ms per MB for each (median of ROUNDS after a warm-up), how the time grows when
// the text is four times longer, and the first-call cost (compiling the ruleset).
// Target: every input under 1 s per MB, and time growing with the text, not its square.
//
//   node bench/redaction.ts
//
// Runs the TypeScript sources directly: the `.js` import suffixes of the package map to
// the `.ts` files, transformed by Node's type stripping.
import { readFileSync } from "node:fs";
import { registerHooks, stripTypeScriptTypes } from "node:module";
import { fileURLToPath } from "node:url";

const ROUNDS = 5;
const MB = 1 << 20;
const TARGET_MS_PER_MB = 1000;
// stripTypeScriptTypes warns that it is experimental on every run; the numbers matter here.
process.removeAllListeners("warning");

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (!specifier.startsWith(".") || !specifier.endsWith(".js")) throw error;
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
  load(url, context, nextLoad) {
    if (!url.startsWith("file:") || !url.endsWith(".ts") || url.includes("/node_modules/")) {
      return nextLoad(url, context);
    }
    const source = readFileSync(fileURLToPath(url), "utf8");
    return {
      format: "module",
      source: stripTypeScriptTypes(source, { mode: "transform" }),
      shortCircuit: true,
    };
  },
});

const { redactSecrets } = (await import("../packages/redaction/src/index.ts")) as {
  redactSecrets(text: string): string;
};
const { GITLEAKS_RULESET } =
  (await import("../packages/redaction/src/gitleaks-rules.generated.ts")) as {
    GITLEAKS_RULESET: { rules: { keywords: string[] }[]; source: { version: string } };
  };
const { fakeSecrets, ORDINARY_TEXTS } =
  (await import("../packages/redaction/src/__fixtures__/fake-secrets.ts")) as {
    fakeSecrets(seed?: number): { text: string }[];
    ORDINARY_TEXTS: readonly string[];
  };

const fill = (unit: string): string => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
const keywords = [...new Set(GITLEAKS_RULESET.rules.flatMap((rule) => rule.keywords))];

const inputs: Record<string, string> = {
  "ordinary text": fill(`${ORDINARY_TEXTS.join("\n")}\n`),
  "fake secrets": fill(
    `${[1, 2, 3, 4].flatMap((seed) => fakeSecrets(seed).map((entry) => entry.text)).join("\n")}\n`,
  ),
  "every keyword, dense": fill(keywords.join("")),
  "every keyword, spaced": fill(`${keywords.join(" ")} `),
  "every keyword = value": fill(keywords.map((word) => `${word}=aB3dE5gH7jK9mN1pQ3sT`).join(" ")),
  "every keyword, then 1 MB of a": `${keywords.join(" ")} ${fill("a")}`,
  "a=a=a=... (key chain)": fill("a="),
  "password=password=...": fill("password="),
  'password:"... (unterminated)': fill('password:"x'),
  "--token --token ...": fill("--token "),
  "glpat-glpat-... (one long token)": fill("glpat-"),
  "a-a-a-... (hyphenated names)": fill("a-"),
  "base64 run": fill("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0123456789+/"),
  "ey... (JWT openings)": fill("eyJhbGciOiJIUzI1NiJ9."),
  "BEGIN PRIVATE KEY, no END": fill("-----BEGIN PRIVATE KEY-----\n"),
  "BEGIN ... END pairs": fill(
    "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n",
  ),
  "scheme://user: (no @)": fill("https://user:pass"),
  "%XX escapes": fill("%3D%2B%2F"),
  "backslash escapes": fill(String.raw`\n\"password\":\"x\"\u0041`),
  "Bearer Bearer ...": fill("Bearer "),
  "sshpass -p sshpass -p ...": fill("sshpass -p "),
  "mysql -u ' (unterminated quotes)": fill("mysql -u '"),
  "smbclient -U user (no %)": fill("smbclient -U ada "),
  'machine " (unterminated netrc)': fill('machine "'),
  "machine x login y ...": fill("machine x login y "),
  '<entry key="password"> (no close)': fill('<entry key="password">'),
  '<add key="password" x=" ...': fill('<add key="password" x="'),
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const firstStart = performance.now();
redactSecrets("warm-up: password=hunter2 ghp_x");
const firstCall = performance.now() - firstStart;

console.log(
  `redaction (gitleaks ${GITLEAKS_RULESET.source.version} + XZatoma rules), ms per MB, median of ${ROUNDS}`,
);
console.log(`first call (compiles the ruleset): ${firstCall.toFixed(1)} ms`);
let worst = 0;
let worstGrowth = 0;
const timeOf = (text: string, rounds: number): number => {
  redactSecrets(text);
  const times: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = performance.now();
    redactSecrets(text);
    times.push(performance.now() - start);
  }
  return median(times);
};
console.log(`  ${"input".padEnd(32)} ${"ms/MB".padStart(6)}  time x4 text`);
for (const [name, text] of Object.entries(inputs)) {
  const oneMb = timeOf(text, ROUNDS);
  // Four times the text: a linear scan takes about four times as long, a quadratic one 16.
  const fourMb = timeOf(text.repeat(4), 3);
  const msPerMb = oneMb / (text.length / MB);
  const growth = fourMb / oneMb;
  worst = Math.max(worst, msPerMb);
  worstGrowth = Math.max(worstGrowth, growth);
  console.log(`  ${name.padEnd(32)} ${msPerMb.toFixed(0).padStart(6)}  x${growth.toFixed(1)}`);
}
console.log(
  `worst ${worst.toFixed(0)} ms/MB (target < ${TARGET_MS_PER_MB}), worst growth x${worstGrowth.toFixed(1)} for x4 text (linear: about 4)`,
);
