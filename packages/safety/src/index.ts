export {
  createPathGuard,
  type GuardedFile,
  type PathGuard,
  type PathGuardOptions,
} from "./path-guard.js";
export {
  PathOutsideWorkspaceError,
  PathProtectedError,
  type PathRefusal,
} from "./path-guard-error.js";
export {
  isProtectedPath,
  isSecretFileName,
  PROTECTED_WORKSPACE_DIRECTORIES,
  PROTECTED_WORKSPACE_PATHS,
  SHELL_STARTUP_FILES,
} from "./protected-paths.js";
export {
  decideApproval,
  isToolAvailable,
  type ApprovalAccess,
  type ApprovalModes,
  type ApprovalOutcome,
  type ApprovalSubject,
  type ApprovalVerdict,
  type ChatMode,
  type ExecutionMode,
  type SafetyMode,
} from "./approval-policy.js";
export {
  createAuditLog,
  formatAuditEntry,
  type AuditedCommand,
  type AuditedDecision,
  type AuditEntry,
  type AuditLog,
} from "./audit-log.js";
export { redactSecrets } from "./redact-secrets.js";
export {
  createSandbox,
  type Sandbox,
  type SandboxOptions,
  type SandboxRunOptions,
} from "./sandbox.js";
export * from "./url-guard/index.js";
export * from "./command-policy/index.js";
