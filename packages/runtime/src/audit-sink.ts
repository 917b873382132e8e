import type { ToolAuditSink } from "@xzatoma/core";
import type { AuditLog } from "@xzatoma/safety";

/** Writes the registry's decisions to the audit log; executed commands are logged by the terminal tool itself. */
export function createAuditSink(auditLog: AuditLog, workingDirectory: string): ToolAuditSink {
  return (entry) => {
    if (entry.kind !== "decision") return;
    auditLog.record({
      kind: "decision",
      workingDirectory,
      toolName: entry.toolName,
      subject: entry.subject,
      decision: entry.verdict === "block" ? "block" : entry.approved ? "allow" : "block",
      approved: entry.approved,
      reason: entry.reason,
    });
  };
}
