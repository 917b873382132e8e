export { REDACTED } from "./secret-span.js";
export { createRedactor, redactSecrets, type Redact, type RedactorOptions } from "./redactor.js";
export { redactValue } from "./redact-value.js";
export { isSecretName } from "./secret-names.js";
