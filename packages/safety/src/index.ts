export {
  createPathGuard,
  type GuardedFile,
  type PathGuard,
  type PathGuardOptions,
  type WriteChange,
} from "./path-guard.js";
export {
  PathOutsideWorkspaceError,
  PathProtectedError,
  type PathRefusal,
} from "./path-guard-error.js";
export {
  isProtectedPath,
  isSecretFileName,
  protectionOf,
  type PathEnvironment,
} from "./protected-paths.js";
export { writeConcern, type PathConcern, type PathProtection } from "./path-rules/path-rules.js";
export { NAMED_PATHS, type NamedPath } from "./path-rules/named-paths.js";
export { foldName } from "./path-rules/case-fold.js";
export {
  INERT_HIDDEN_NAMES,
  judgeFileChange,
  type FileChangeKind,
  type FileChangeOptions,
} from "./path-rules/file-change.js";
export {
  assertUnattendedWorkspace,
  HomeWorkspaceError,
  workspaceHoldsHome,
} from "./workspace-home.js";
export { isSecretPath } from "./path-rules/secret-paths.js";
export {
  createSecretExposure,
  exfiltrationConcern,
  type SecretExposure,
} from "./secret-exposure.js";
export { touchesGitDirectory } from "./path-rules/git-directory-shape.js";
export { resolveLinkTarget, type PendingTree } from "./path-rules/link-target.js";
export {
  APPROVAL_POLICIES,
  approvalPolicyFromLegacy,
  decideApproval,
  isToolAvailable,
  type ApprovalAccess,
  type ApprovalModes,
  type ApprovalOutcome,
  type ApprovalPolicy,
  type ApprovalSubject,
  type ApprovalVerdict,
  type ChatMode,
  type LegacyModes,
} from "./approval-policy.js";
export {
  createApprovalHandler,
  type ApprovalAnswer,
  type ApprovalQuestion,
  type AskPerson,
} from "./approval-handler.js";
export {
  createAuditLog,
  formatAuditEntry,
  type AuditedCommand,
  type AuditedDecision,
  type AuditEntry,
  type AuditLog,
} from "./audit-log.js";
export {
  createRedactor,
  isSecretName,
  REDACTED,
  redactSecrets,
  redactValue,
  type Redact,
  type RedactorOptions,
} from "./redaction.js";
export {
  createSandbox,
  type PreparedRun,
  type Sandbox,
  type SandboxOptions,
  type SandboxRunOptions,
} from "./sandbox/sandbox.js";
export type { SandboxChangeKind, SandboxJudge, SandboxOutcome } from "./sandbox/apply-changes.js";
export { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from "./sandbox/sandbox-limits.js";
export { SandboxRefusedError, type SandboxRefusal } from "./sandbox/sandbox-refused-error.js";
export { DEFAULT_SECRET_SCAN, type SecretScanBounds } from "./sandbox/workspace-secrets.js";
export type {
  EgressConnection,
  EgressRefusal,
  EgressReport,
  SandboxEgress,
} from "./sandbox/egress/egress-report.js";
export { createEgressHostMatcher } from "./sandbox/egress/host-patterns.js";
export {
  checkMention,
  checkUrl,
  createAllowance,
  createGuardedFetch,
  isDeniedAddress,
  UrlBlockedError,
  type Allowance,
  type ByteCapAction,
  type GuardedFetch,
  type GuardedFetchInit,
  type GuardedFetchOptions,
  type GuardedResponse,
  type LookupFunction,
  type ResolvedAddress,
  type UrlDecision,
  type UrlGuardOptions,
  type UrlRefusal,
  type UrlVerdict,
} from "./url-guard/index.js";
export * from "./command-policy/index.js";
export {
  compilePathGlob,
  DEFAULT_MATCH_BUDGET,
  MAX_BRACE_RANGE,
  PatternBudgetError,
  PatternSyntaxError,
  type PathGlob,
  type PathGlobOptions,
} from "./patterns/index.js";
export {
  createTerminalSafeStream,
  escapeCodePoint,
  needsEscaping,
  toTerminalSafe,
  toTerminalSafeJson,
  toTerminalSafeLine,
  toTerminalSafeLineCut,
  type TerminalSafeOptions,
  type TerminalSafeStream,
} from "./terminal-safe.js";
