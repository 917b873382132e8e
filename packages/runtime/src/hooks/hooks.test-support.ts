// Real hook scripts in a temporary directory and a runtime on a scripted OpenAI server, for
// the hook tests. The tests pass the scripted server's start function in (only tests may
// import the workspace's scripted servers).
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ApprovalDecision, ApprovalRequest } from "@xzatoma/core";
import { createAgentRuntime, type AgentRuntime } from "../agent-runtime.js";
import { resolveRuntimeConfig } from "../resolve-config.js";
import type { SessionModes } from "../session-modes.js";

/** A request as the scripted server shows it to a scenario. */
export interface ChatView {
  readonly messages: readonly { readonly role: string; readonly content: string }[];
}
/** What the scripted server answers. */
export interface ScriptedReply {
  readonly content?: string;
  readonly toolCalls?: { name: string; arguments: Record<string, unknown> }[];
}
/** `startScriptedOpenAI` of the scripted servers, as far as these tests use it. */
export type StartServer = (options: {
  scenario: (request: ChatView, index: number) => ScriptedReply;
  apiKey: string;
  models: string[];
}) => Promise<{ readonly url: string; close(): Promise<void> }>;

/** A temporary home, workspace and script directory; `close` removes them. */
export interface HookFixture {
  readonly base: string;
  readonly home: string;
  readonly workspace: string;
  readonly dataDir: string;
  /** Writes an executable script and gives its path. */
  script(name: string, body: string): Promise<string>;
  /** Each JSON line a logging script appended to `file` (see {@link logTo}). */
  events(file: string): Promise<Record<string, unknown>[]>;
  /** A path in the fixture for a log. */
  log(name: string): string;
  close(): Promise<void>;
}

export async function createHookFixture(): Promise<HookFixture> {
  const base = await mkdtemp(path.join(os.tmpdir(), "xz-hooks-"));
  const home = path.join(base, "home");
  const workspace = path.join(base, "workspace");
  const scripts = path.join(base, "scripts");
  await Promise.all([
    mkdir(workspace, { recursive: true }),
    mkdir(home, { recursive: true }),
    mkdir(scripts, { recursive: true }),
  ]);
  await writeFile(path.join(workspace, "notes.txt"), "NOTES-CONTENT\n");
  await writeFile(path.join(workspace, "other.txt"), "OTHER-CONTENT\n");
  return {
    base,
    home,
    workspace,
    dataDir: path.join(home, "data"),
    async script(name, body) {
      const file = path.join(scripts, name);
      await writeFile(file, body);
      await chmod(file, 0o755);
      return file;
    },
    async events(file) {
      let text = "";
      try {
        text = await readFile(file, "utf8");
      } catch {
        return [];
      }
      return text
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    log: (name) => path.join(base, name),
    close: () => rm(base, { recursive: true, force: true }),
  };
}

/** A shell line that appends the event (one JSON line) to `file`, then does `then`. */
export function logTo(file: string, then = "exit 0"): string {
  return `#!/bin/sh\ntr -d '\\n' >> ${JSON.stringify(file)}\necho >> ${JSON.stringify(file)}\n${then}\n`;
}

/** One hook entry of an event: `[{ matcher, hooks: [{ command, timeout }] }]`. */
export const hook = (command: string, options: { matcher?: string; timeout?: number } = {}) => [
  {
    ...(options.matcher !== undefined ? { matcher: options.matcher } : {}),
    hooks: [{ type: "command", command, ...(options.timeout ? { timeout: options.timeout } : {}) }],
  },
];

/** Options of {@link startHookedRuntime}. */
export interface HookedRuntimeOptions {
  readonly hooks: Record<string, unknown>;
  readonly start: StartServer;
  readonly scenario: (request: ChatView, index: number) => ScriptedReply;
  readonly modes?: SessionModes;
  readonly subagents?: boolean;
  readonly ask?: (request: ApprovalRequest) => Promise<ApprovalDecision>;
  readonly agent?: Record<string, unknown>;
}

/** A runtime with `hooks` on a scripted model; every request the model got is in `seen`. */
export async function startHookedRuntime(
  fixture: HookFixture,
  options: HookedRuntimeOptions,
): Promise<{
  runtime: AgentRuntime;
  seen: ChatView[];
  warnings: string[];
  close(): Promise<void>;
}> {
  const seen: ChatView[] = [];
  const server = await options.start({
    scenario: (request, index) => {
      seen.push(request);
      return options.scenario(request, index);
    },
    apiKey: "sk-test",
    models: ["scripted-1"],
  });
  const config = resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: server.url, model: "scripted-1" } },
      agent: { terminal: { sandbox: false }, ...options.agent },
      persistence: { data_dir: fixture.dataDir, enabled: false },
      hooks: options.hooks,
    },
    { homeDir: fixture.home, env: {} },
  );
  const warnings: string[] = [];
  const ask = options.ask;
  const runtime = await createAgentRuntime(
    config,
    {
      warn: (message) => warnings.push(message),
      ...(ask ? { ask: (request: ApprovalRequest) => ask(request) } : {}),
    },
    {
      workspace: fixture.workspace,
      modes: options.modes ?? { chatMode: "write", approvalPolicy: "never" },
      env: { OPENAI_API_KEY: "sk-test", PATH: process.env["PATH"] ?? "" },
      skills: false,
      ...(options.subagents ? { subagents: true } : {}),
    },
  );
  return {
    runtime,
    seen,
    warnings,
    async close() {
      await runtime.close();
      await server.close();
    },
  };
}

/** The content of the last message of `role` in a request. */
export function last(view: ChatView | undefined, role: string): string {
  return view?.messages.findLast((message) => message.role === role)?.content ?? "";
}
