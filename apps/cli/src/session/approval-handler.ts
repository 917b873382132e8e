import type { ApprovalDecision, ApprovalHandler, ApprovalRequest } from "@xzatoma/core";
import { decideApproval, type ApprovalOutcome } from "@xzatoma/safety";
import type { SessionModes } from "@xzatoma/runtime";

/** Asks the person in front of the terminal; absent in `run`. */
export type AskPerson = (
  request: ApprovalRequest,
  outcome: ApprovalOutcome,
) => Promise<ApprovalDecision>;

/**
 * The approval handler of a session: the approval policy decides from the modes in force
 * and the tool's judgement; `confirm` goes to the person when there is one, and is a
 * refusal otherwise.
 */
export function createApprovalHandler(modes: SessionModes, ask?: AskPerson): ApprovalHandler {
  return async (request) => {
    const outcome = decideApproval(modes, {
      toolName: request.toolName,
      access: request.access,
      verdict: request.verdict,
      reason: request.reason,
      ...(request.requiresPerson ? { requiresPerson: true } : {}),
    });
    if (outcome.decision === "allow") return { approved: true, reason: outcome.reason };
    if (outcome.decision === "block") return { approved: false, reason: outcome.reason };
    if (!ask)
      return { approved: false, reason: `${outcome.reason} No one is available to confirm it.` };
    // Only this path reaches a person; every other answer above came from the modes.
    const answer = await ask(request, outcome);
    return { ...answer, byPerson: answer.approved };
  };
}
