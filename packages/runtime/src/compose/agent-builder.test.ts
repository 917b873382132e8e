import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Message } from "@xzatoma/conversation";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAuditSink } from "../audit-sink.js";
import { createToolSearch } from "../mcp/tool-search.js";
import { resolveRuntimeConfig } from "../resolve-config.js";
import { createRuntimeEvents } from "../runtime-events.js";
import type { RuntimeIO } from "../runtime-io.js";
import type { SessionModes } from "../session-modes.js";
import { createAgentBuilder } from "./agent-builder.js";
import { RunScope } from "./run-scope.js";
import { buildRuntimeApprovals } from "./runtime-approvals.js";
import { buildRuntimeHooks } from "./runtime-hooks.js";
import { buildRuntimeProviders } from "./runtime-providers.js";
import { RuntimeSession } from "./runtime-session.js";
import { buildRuntimeTools } from "./runtime-tools.js";
import { buildRuntimeWorkspace } from "./runtime-workspace.js";
import { buildSubagentScope } from "./subagent-scope.js";

let home: string;
let workspace: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "xz-agent-builder-home-"));
  workspace = await mkdtemp(path.join(os.tmpdir(), "xz-agent-builder-ws-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(workspace, { recursive: true, force: true });
});

const io: RuntimeIO = { warn: () => undefined };

/** A session built as `createAgentRuntime` builds it, from the real builders; no model is called. */
async function startSession(options: {
  readonly subagents?: boolean;
  readonly limits?: { readonly maxTurns?: number };
}) {
  const config = resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: "http://127.0.0.1:9/v1", model: "m-1" } },
      agent: { max_turns: 10, terminal: { sandbox: false } },
      persistence: { data_dir: path.join(home, "data"), enabled: false },
    },
    { homeDir: home, env: {} },
  );
  const modes: SessionModes = { chatMode: "write", approvalPolicy: "never" };
  const env = { OPENAI_API_KEY: "sk-test" };
  const { auditLog, workspace: context } = buildRuntimeWorkspace(
    config,
    { workspace, modes },
    () => undefined,
  );
  const { tools } = await buildRuntimeTools(config, io, { env }, context, auditLog);
  const subagents = options.subagents ?? false;
  const providers = buildRuntimeProviders(config, io, {
    env,
    workspace: context.root,
    given: undefined,
    subagents,
  });
  const { provider } = providers;
  const session = new RuntimeSession(provider.defaultModel, provider.contextWindow("m-1"));
  const hooks = buildRuntimeHooks(config, io, {
    env,
    workspace: context.root,
    modes,
    sessionId: () => undefined,
  });
  const approve = buildRuntimeApprovals(modes, io, hooks);
  const audit = createAuditSink(auditLog, context.root);
  const subagentScope = subagents
    ? buildSubagentScope({
        config,
        providers,
        model: () => session.model,
        workspace: context.root,
        approve,
        audit,
        run: new RunScope(config),
        events: createRuntimeEvents(),
        history: undefined,
        hooks,
        observeSubagent: undefined,
      })
    : undefined;
  const build = createAgentBuilder({
    config,
    modes,
    provider,
    tools,
    hooks,
    subagentScope,
    toolSearch: createToolSearch(config.mcp, () => []),
    approve,
    audit,
    limits: options.limits,
    systemPrompt: "You are XZatoma.",
  });
  return { session, modes, build };
}

describe("createAgentBuilder", () => {
  it("registers the tools the session's mode allows, again on every rebuild", async () => {
    const { session, modes, build } = await startSession({});
    session.start(build, []);
    expect(session.agent.tools.names()).toEqual(
      expect.arrayContaining(["read_file", "write_file", "terminal"]),
    );
    modes.chatMode = "planning";
    session.rebuild();
    expect(session.agent.tools.names()).toContain("read_file");
    expect(session.agent.tools.names()).not.toContain("write_file");
    expect(session.agent.tools.names()).not.toContain("terminal");
  });

  it("adds the delegation tools only when the runtime has subagents", async () => {
    const without = await startSession({});
    without.session.start(without.build, []);
    expect(without.session.agent.tools.names()).not.toContain("subagent");
    const withSubagents = await startSession({ subagents: true });
    withSubagents.session.start(withSubagents.build, []);
    expect(withSubagents.session.agent.tools.names()).toEqual(
      expect.arrayContaining(["subagent", "parallel_subagent"]),
    );
  });

  it("lets a run's limits lower the configured ones, never raise them", async () => {
    const lower = await startSession({ limits: { maxTurns: 3 } });
    lower.session.start(lower.build, []);
    expect(lower.session.agent.limits.maxTurns).toBe(3);
    const higher = await startSession({ limits: { maxTurns: 500 } });
    higher.session.start(higher.build, []);
    expect(higher.session.agent.limits.maxTurns).toBe(10);
  });

  it("puts what the SessionStart hooks added into the system prompt, and keeps the messages", async () => {
    const { session, build } = await startSession({});
    const hello: Message = { role: "user", content: "hello" };
    session.start(build, [hello]);
    session.sessionContext = ["The release branch is frozen."];
    session.rebuild();
    const system = session.agent.conversation
      .entries()
      .map((entry) => entry.message)
      .find((message) => message.role === "system");
    expect(system?.content).toContain("You are XZatoma.");
    expect(system?.content).toContain("The release branch is frozen.");
    expect(session.agent.messages).toEqual([hello]);
  });
});
