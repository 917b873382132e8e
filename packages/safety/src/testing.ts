/**
 * Test helpers for packages that build on `@xzatoma/safety` (not part of its runtime API):
 * a corpus of real-format fake secrets that redaction must catch, and ordinary text it
 * must leave alone.
 */
export {
  fakeSecrets,
  ORDINARY_TEXTS,
  type FakeSecret,
} from "./redaction/__fixtures__/fake-secrets.js";
