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
