/**
 * Test helpers for packages that build on `@xzatoma/safety` (not part of its runtime API).
 *
 * @deprecated The fake-secret corpus moved with redaction: import `fakeSecrets`,
 * `ORDINARY_TEXTS` and `FakeSecret` from `@xzatoma/redaction/testing`. This subpath is removed
 * in the next release.
 */
export { fakeSecrets, ORDINARY_TEXTS, type FakeSecret } from "@xzatoma/redaction/testing";
