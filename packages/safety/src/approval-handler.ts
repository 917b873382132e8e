import {
  decideApproval,
  type ApprovalModes,
  type ApprovalOutcome,
  type ApprovalSubject,
} from "./approval-policy.js";

/**
 * The call a handler is asked about. `@xzatoma/core`'s `ApprovalRequest` is this type: one
 * approval vocabulary, defined here, where the policy that reads it lives. `reason` is a
 * sentence; `summary` says what will happen, for the person asked.
 */
export interface ApprovalQuestion extends ApprovalSubject {
  readonly toolCallId: string;
  readonly input: unknown;
  readonly summary?: string;
}

/**
 * The answer. `@xzatoma/core`'s `ApprovalDecision` is this type. `reason` is shown to the
 * model when the call is refused; `editedInput` (a corrected command) is validated and judged
 * again; `byPerson` marks a person's answer, the only one a call that `requiresPerson` runs
 * with.
 */
export interface ApprovalAnswer {
  readonly approved: boolean;
  readonly reason?: string;
  readonly editedInput?: unknown;
  readonly byPerson?: boolean;
}

/**
 * Asks a person about a call the policy could not settle. Only answers that come back
 * through here are marked as a person's (`byPerson`).
 */
export type AskPerson<Q extends ApprovalQuestion = ApprovalQuestion> = (
  question: Q,
  outcome: ApprovalOutcome,
) => Promise<ApprovalAnswer>;

/**
 * The approval handler of a session: {@link decideApproval} decides from the modes in force
 * (read when each call is decided, so a mode switch applies to the next call) and the tool's
 * own judgement; `confirm` goes to the person when `ask` is given and is a refusal
 * otherwise. A person's answer is the only one marked `byPerson`, and only when it is a yes.
 *
 * @example
 * const approve = createApprovalHandler(modes);            // run, watcher: nobody to ask
 * const approve = createApprovalHandler(modes, askAtTerminal); // chat
 */
export function createApprovalHandler<Q extends ApprovalQuestion>(
  modes: ApprovalModes,
  ask?: AskPerson<Q>,
): (question: Q) => Promise<ApprovalAnswer> {
  return async (question) => {
    const outcome = decideApproval(modes, {
      toolName: question.toolName,
      access: question.access,
      verdict: question.verdict,
      reason: question.reason,
      ...(question.requiresPerson ? { requiresPerson: true } : {}),
      ...(question.readOnly ? { readOnly: true } : {}),
    });
    if (outcome.decision === "allow") return { approved: true, reason: outcome.reason };
    if (outcome.decision === "block") return { approved: false, reason: outcome.reason };
    if (!ask)
      return { approved: false, reason: `${outcome.reason} No one is available to confirm it.` };
    let answer: ApprovalAnswer;
    try {
      answer = await ask(question, outcome);
    } catch (error) {
      // A prompt that fails (the terminal closed, the client went away) is a no.
      const why = error instanceof Error ? error.message : String(error);
      return { approved: false, reason: `${outcome.reason} Asking failed (${why}).` };
    }
    // Whatever the answer claims, it is a person's only when it is a yes from here.
    return { ...answer, byPerson: answer.approved };
  };
}
