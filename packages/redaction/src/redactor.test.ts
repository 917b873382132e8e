import { describe, expect, it } from "vitest";
import { fakeSecrets, ORDINARY_TEXTS } from "./__fixtures__/fake-secrets.js";
import { createRedactor, REDACTED, redactSecrets } from "./index.js";

describe("redactSecrets on the fake-secret corpus", () => {
  const corpus = fakeSecrets();

  it.each(corpus.map((entry) => [entry.name, entry] as const))("redacts %s", (_name, entry) => {
    const redacted = redactSecrets(entry.text);
    for (const secret of entry.secrets) expect(redacted).not.toContain(secret);
    expect(redacted).toContain(REDACTED);
    for (const kept of entry.kept ?? []) expect(redacted).toContain(kept);
  });

  it("redacts every secret of the corpus in one text, and again under another seed", () => {
    for (const seed of [1, 2, 3]) {
      const entries = fakeSecrets(seed);
      const redacted = redactSecrets(entries.map((entry) => entry.text).join("\n\n"));
      for (const secret of entries.flatMap((entry) => entry.secrets))
        expect(redacted).not.toContain(secret);
    }
  });

  it("is idempotent", () => {
    const once = redactSecrets(corpus.map((entry) => entry.text).join("\n"));
    expect(redactSecrets(once)).toBe(once);
  });
});

describe("redactSecrets on ordinary text", () => {
  it.each(ORDINARY_TEXTS.map((text) => [text]))("leaves %j alone", (text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it("leaves the empty string alone", () => {
    expect(redactSecrets("")).toBe("");
  });
});

describe("readability", () => {
  it("keeps names, headers and the key block's frame", () => {
    const key = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW";
    expect(
      redactSecrets(
        `-----BEGIN OPENSSH PRIVATE KEY-----\n${key}\n-----END OPENSSH PRIVATE KEY-----`,
      ),
    ).toBe("-----BEGIN OPENSSH PRIVATE KEY-----\n[REDACTED]\n-----END OPENSSH PRIVATE KEY-----");
    expect(redactSecrets('{"password": "correct horse", "user": "ada"}')).toBe(
      '{"password": "[REDACTED]", "user": "ada"}',
    );
    expect(redactSecrets("API_KEY=abc123 make deploy")).toBe("API_KEY=[REDACTED] make deploy");
    expect(redactSecrets("https://ada:pa55word@example.org/x")).toBe(
      "https://ada:[REDACTED]@example.org/x",
    );
  });

  it("merges overlapping findings into one marker", () => {
    const token = `ghp_${"a1B2c3D4e5".repeat(4)}`.slice(0, 40);
    expect(redactSecrets(`GITHUB_TOKEN=${token}`)).toBe("GITHUB_TOKEN=[REDACTED]");
  });

  it("carries a finding that stops inside a token on to the token's end", () => {
    // gitleaks pins classic GitHub tokens at 36 characters; a longer one must not leak its tail.
    const token = `ghp_${"Zx9Qw8Er7Ty6".repeat(4)}tail`;
    expect(redactSecrets(`remote: ${token} done`)).toBe("remote: [REDACTED] done");
  });
});

describe("createRedactor({ known })", () => {
  const known = "opaque-session-value";

  it("removes a known secret whatever its format, also URL-encoded and JSON-escaped", () => {
    const redact = createRedactor({ known: [known, 'with "quotes" inside'] });
    expect(redact(`failed for ${known}!`)).toBe(`failed for ${REDACTED}!`);
    expect(redact(`?s=${encodeURIComponent('with "quotes" inside')}`)).toBe(`?s=${REDACTED}`);
    expect(redact(JSON.stringify({ note: 'with "quotes" inside' }))).toBe(`{"note":"${REDACTED}"}`);
  });

  it("ignores known values shorter than 8 characters", () => {
    expect(createRedactor({ known: ["short"] })("a short note")).toBe("a short note");
  });

  it("still applies the ruleset", () => {
    expect(createRedactor({ known: [] })("password=hunter2")).toBe("password=[REDACTED]");
  });
});
