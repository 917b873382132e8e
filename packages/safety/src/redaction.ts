// Redaction moved to `@xzatoma/redaction`, a leaf package, so that the packages that only
// redact (providers, persistence) no longer install the command policy, the sandbox and the
// URL guard. These names stay here for one release, deprecated.
import * as redaction from "@xzatoma/redaction";

/** @deprecated Import `REDACTED` from `@xzatoma/redaction`; removed from `@xzatoma/safety` in the next release. */
export const REDACTED: typeof redaction.REDACTED = redaction.REDACTED;
/** @deprecated Import `createRedactor` from `@xzatoma/redaction`; removed from `@xzatoma/safety` in the next release. */
export const createRedactor: typeof redaction.createRedactor = redaction.createRedactor;
/** @deprecated Import `redactSecrets` from `@xzatoma/redaction`; removed from `@xzatoma/safety` in the next release. */
export const redactSecrets: typeof redaction.redactSecrets = redaction.redactSecrets;
/** @deprecated Import `redactValue` from `@xzatoma/redaction`; removed from `@xzatoma/safety` in the next release. */
export const redactValue: typeof redaction.redactValue = redaction.redactValue;
/** @deprecated Import `isSecretName` from `@xzatoma/redaction`; removed from `@xzatoma/safety` in the next release. */
export const isSecretName: typeof redaction.isSecretName = redaction.isSecretName;
/** @deprecated Import `Redact` from `@xzatoma/redaction`; removed from `@xzatoma/safety` in the next release. */
export type Redact = redaction.Redact;
/** @deprecated Import `RedactorOptions` from `@xzatoma/redaction`; removed from `@xzatoma/safety` in the next release. */
export type RedactorOptions = redaction.RedactorOptions;
