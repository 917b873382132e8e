/**
 * Test helpers for packages that redact with `@xzatoma/redaction` (not part of its runtime
 * API): a corpus of real-format fake secrets that redaction must catch, and ordinary text it
 * must leave alone.
 */
export { fakeSecrets, ORDINARY_TEXTS, type FakeSecret } from "./__fixtures__/fake-secrets.js";
