import type { AgentEvent, AgentResult, ApprovalDecision, ApprovalRequest } from "@xzatoma/core";

/** What the REPL shows in its prompt. */
export interface ChatState {
  readonly mode: "planning" | "write";
  readonly approvalPolicy: "untrusted" | "on-escalation" | "never";
  readonly provider: string;
  readonly model: string;
}

/**
 * Everything the REPL needs from the agent side. The REPL does terminal I/O only; the
 * engine owns the agent, the tools, the modes and persistence.
 */
export interface ChatEngine {
  state(): ChatState;
  /** Runs one turn of the conversation (mentions expanded by the engine). */
  send(
    text: string,
    options: {
      signal: AbortSignal;
      onEvent: (event: AgentEvent) => void;
      onNotice: (message: string) => void;
    },
  ): Promise<AgentResult>;
  setMode(mode: "planning" | "write"): string;
  /** Shows, or with a policy switches, when the person is asked. */
  setApprovalPolicy(policy: "untrusted" | "on-escalation" | "never" | undefined): string;
  setModel(name: string): Promise<string>;
  listModels(): Promise<string>;
  status(): string;
  /** The MCP servers, their state and their tools (`/mcp`). */
  mcp(): string;
  /** The skills and custom commands the session offers (`/skills`). */
  skills(): string;
  /** Whether `/name` runs a custom command of the session (sent as a prompt). */
  isCustomCommand(name: string): boolean;
  context(): string;
  summarize(signal: AbortSignal): Promise<string>;
  /** `/compact [focus]`: prunes all before this turn that may go and has the model summarise it. */
  compact(focus: string, signal: AbortSignal): Promise<string>;
  clear(): string;
  /** Installs the function that asks the person to confirm a call. */
  setConfirm(confirm: (request: ApprovalRequest) => Promise<ApprovalDecision>): void;
  close(): Promise<void>;
}
