// File content now reaches the model through the redactor: prose and code that merely
// name a secret must come through as written, or the model reads (and cannot edit) lines
// that say [REDACTED]. Settings and literals still lose their values.
import { describe, expect, it } from "vitest";
import { redactSecrets } from "./index.js";

describe("redactSecrets on prose and code that name a secret", () => {
  it.each([
    "// What a server returns may be a secret: a later fetch to a host needs a yes",
    "/** Whether a path looks like it holds secrets: the same as isSecretPath. */",
    "export const CHARACTERS_PER_TOKEN = 4;",
    'let signature = paths && code === SLASH ? "/" : "";',
    "if (password == expected) return;",
    " * sent as `Authorization: Bearer`. Default: none.",
    'headers: { Authorization: "Bearer ${DOCS_TOKEN}" }',
    "Authorization: Bearer $GITHUB_TOKEN",
    "poll(options?: { readonly signal?: AbortSignal }): Promise<GithubOAuthToken>;",
    "function redact(message: string, secrets: Iterable<string>): string {",
    "function needsRedaction(error: unknown, secrets: readonly string[]): boolean {",
    "endOfAnswerBias: Object.freeze({ after: 256, perToken: 0.1 }),",
  ])("leaves %j alone", (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});

describe("redactSecrets on settings and literals", () => {
  it.each([
    ["password: hunter", "password: [REDACTED]"],
    ["  db_password: hunter\n", "  db_password: [REDACTED]\n"],
    ["API_TOKEN=abcdef", "API_TOKEN=[REDACTED]"],
    ["export API_TOKEN=abcdef", "export API_TOKEN=[REDACTED]"],
    ["docker run -e DB_PASSWORD=hunter app", "docker run -e DB_PASSWORD=[REDACTED] app"],
    ["Server=db;Password=hunter;", "Server=db;Password=[REDACTED];"],
    [
      "https://api.example.org/v1?token=abcdef&x=1",
      "https://api.example.org/v1?token=[REDACTED]&x=1",
    ],
    ['const password = "hunter";', 'const password = "[REDACTED]";'],
    ["let token = s3cr3t_v4lue;", "let token = [REDACTED];"],
    ["the password: hunter2x", "the password: [REDACTED]"],
    ["Authorization: Bearer abc.def-123", "Authorization: Bearer [REDACTED]"],
    ["<password>hunter</password>", "<password>[REDACTED]</password>"],
  ])("%j", (text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });
});
