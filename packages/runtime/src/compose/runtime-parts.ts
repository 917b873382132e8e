import type { McpManager } from "@xzatoma/mcp";
import type { Provider } from "@xzatoma/providers";
import type { StandardTools, WorkspaceContext } from "@xzatoma/tools";
import type { RuntimeConfig } from "../config/config-values.js";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { ToolSearch } from "../mcp/tool-search.js";
import type { RuntimeEvents } from "../runtime-events.js";
import type { RuntimeIO } from "../runtime-io.js";
import type { SessionModes } from "../session-modes.js";
import type { Skill } from "../skills/skill-file.js";
import type { TurnCheckpoints } from "../turn-checkpoints.js";
import type { StartRecording } from "./conversation-recording.js";
import type { RunScope } from "./run-scope.js";
import type { RuntimeHistory } from "./runtime-history.js";
import type { AgentRuntimeOptions } from "./runtime-options.js";
import type { SessionContent } from "./session-content.js";

/**
 * What a runtime is made of and keeps for its life, built once by `createAgentRuntime`:
 * its methods and its runs work with these and change only the session.
 */
export interface RuntimeParts {
  readonly config: RuntimeConfig;
  readonly io: RuntimeIO;
  readonly options: AgentRuntimeOptions;
  readonly modes: SessionModes;
  readonly provider: Provider;
  readonly workspace: WorkspaceContext;
  readonly standard: StandardTools;
  readonly mcp: McpManager | undefined;
  /** Past their budget, the MCP tools wait behind `tool_search` (see mcp/tool-search.ts). */
  readonly toolSearch: ToolSearch;
  readonly hooks: SessionHooks;
  readonly checkpoints: TurnCheckpoints;
  readonly history: RuntimeHistory;
  readonly record: StartRecording;
  /** Every front end's listeners; `io.render` (deprecated) is the first subscriber. */
  readonly events: RuntimeEvents;
  readonly run: RunScope;
  /** The delegation tools are offered: a run's quota binds the whole tree. */
  readonly subagents: boolean;
  readonly content: SessionContent;
  /** The skills the model is offered. */
  readonly skills: readonly Skill[];
}
