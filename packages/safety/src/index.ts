export { createPathGuard, type PathGuard, type PathGuardOptions } from "./path-guard.js";
export { PathOutsideWorkspaceError, type PathRefusal } from "./path-guard-error.js";
