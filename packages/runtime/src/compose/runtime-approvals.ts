import type { ApprovalHandler } from "@xzatoma/core";
import { createApprovalHandler } from "@xzatoma/safety";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { RuntimeIO } from "../runtime-io.js";
import type { SessionModes } from "../session-modes.js";

/**
 * The approvals of a runtime and of every subagent it starts: decided by the session's
 * modes, asked through `io.ask` when a person is there (the `Notification` hooks hear of
 * each question, as `permission_prompt`), refused when nobody can be asked.
 */
export function buildRuntimeApprovals(
  modes: SessionModes,
  io: RuntimeIO,
  sessionHooks: Pick<SessionHooks, "notify">,
): ApprovalHandler {
  const ask = io.ask;
  return createApprovalHandler(
    modes,
    ask
      ? (request, outcome) => {
          sessionHooks.notify(
            "permission_prompt",
            `XZatoma needs your permission to use ${request.toolName}`,
          );
          return ask(request, outcome);
        }
      : undefined,
  );
}
