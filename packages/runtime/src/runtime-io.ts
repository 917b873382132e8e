import type { AgentEvent, ApprovalDecision, ApprovalRequest } from "@xzatoma/core";
import type { ApprovalOutcome } from "@xzatoma/safety";

/**
 * What a front end supplies to a runtime: the only ways the runtime reaches a person or a
 * screen. The CLI's chat answers `ask` at the terminal; `run`, the watcher and embedders
 * without a person leave it out, and then every call that needs a yes is refused.
 */
export interface RuntimeIO {
  /** A notice for the person or the log (the sandbox is missing, a renamed key is still used). */
  warn(message: string): void;
  /**
   * Asks a person to confirm a tool call. Only an answer from here counts as a person's
   * (`byPerson`); absent means nobody can be asked.
   */
  readonly ask?: (request: ApprovalRequest, outcome: ApprovalOutcome) => Promise<ApprovalDecision>;
  /**
   * Receives every event of every run, in order (renderers, traces, result events).
   *
   * @deprecated Use `runtime.subscribe(listener)`; `render` is kept as the runtime's first
   * subscriber.
   */
  readonly render?: (event: AgentEvent) => void;
}
